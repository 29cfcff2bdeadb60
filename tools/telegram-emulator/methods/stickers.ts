import type { File, StickerSet } from 'grammy/types';
import type { MethodCall, MethodHandler } from '../core.ts';
import { badRequest, TELEGRAM_ERRORS } from '../errors.ts';
import { isRecord, readJson, readString, requireInt, requireString } from '../params.ts';
import type { FileRecord, StickerEntry, StickerSetRecord } from '../types.ts';
import { inspectStaticSticker, LIMITS, validateStickerSetName, validateStickerSetTitle } from '../validation.ts';
import { inspectVideoSticker } from '../video-sticker.ts';
import { extensionFor, readInputBytes, storeFile } from './input-files.ts';
import { fileObject, stickerObject } from './media.ts';

function requireKnownUser(call: MethodCall): number {
	const userId = requireInt(call.params, 'user_id');
	if (!call.core.store.getUser(userId)) throw TELEGRAM_ERRORS.userNotFound();
	return userId;
}

type StickerFormat = 'static' | 'video';

/**
 * Static (PNG/WEBP) and video (WEBM) stickers; "animated" (.TGS, Lottie) is not emulated. Since
 * Bot API 7.2 the format is per sticker, so one regular set may mix static and video stickers.
 */
function requireFormat(format: unknown, error: () => Error): StickerFormat {
	if (format === 'static' || format === 'video') return format;
	throw format === 'animated' ? badRequest('sticker format "animated" is not supported by the emulator') : error();
}

/** The file checked as its declared format: a PNG sent as "video" or a WEBM as "static" is refused. */
async function storeStickerFile(
	call: MethodCall,
	kind: 'sticker' | 'document',
	format: StickerFormat,
	value: unknown
): Promise<FileRecord> {
	// Telegram downloads static stickers from a URL, never video ones.
	if (format === 'video' && typeof value === 'string' && /^https?:\/\//i.test(value)) {
		throw TELEGRAM_ERRORS.stickerVideoByUrl();
	}
	const input = await readInputBytes(call, 'sticker', value);
	const info =
		format === 'video'
			? await inspectVideoSticker(input.bytes, call.core.settings.ffprobePath, input.existing ? 'file_id' : 'upload')
			: await inspectStaticSticker(input.bytes);
	return storeFile(call.core, kind, input, { ...info, ext: extensionFor(info.format) });
}

async function uploadStickerFile(call: MethodCall): Promise<File> {
	requireKnownUser(call);
	const format = requireFormat(readString(call.params, 'sticker_format'), () =>
		badRequest('invalid sticker format specified')
	);
	return fileObject(await storeStickerFile(call, 'document', format, call.params.sticker));
}

/** InputSticker → a new sticker file in the set; the file is checked like an upload. */
async function readInputSticker(call: MethodCall, raw: unknown): Promise<StickerEntry> {
	const cantParse = (detail: string) => badRequest(`can't parse InputSticker: ${detail}`);
	if (!isRecord(raw)) throw cantParse('object expected');
	const format = requireFormat(raw.format, () => cantParse('Invalid sticker format specified'));
	const emojis = raw.emoji_list;
	const emojiOk = Array.isArray(emojis) && emojis.length >= 1 && emojis.length <= 20;
	if (!emojiOk || !emojis.every((emoji) => typeof emoji === 'string' && emoji.trim() !== '')) {
		throw TELEGRAM_ERRORS.stickerEmojiInvalid();
	}
	if (typeof raw.sticker !== 'string' || raw.sticker === '') throw cantParse('sticker not found');
	const record = await storeStickerFile(call, 'sticker', format, raw.sticker);
	const keywords = Array.isArray(raw.keywords) ? raw.keywords.map(String) : [];
	return { fileId: record.fileId, emoji: String(emojis[0]), keywords };
}

function readStickerList(call: MethodCall): unknown[] {
	const stickers = readJson(call.params, 'stickers', 'stickers JSON object');
	if (!Array.isArray(stickers)) throw badRequest("can't parse stickers JSON object");
	if (stickers.length < LIMITS.initialStickersMin) throw badRequest('sticker list must be non-empty');
	if (stickers.length > LIMITS.initialStickersMax) throw badRequest('too many stickers specified');
	return stickers;
}

function requireFreeName(call: MethodCall, name: string): void {
	const { store, settings } = call.core;
	const key = name.toLowerCase();
	if (store.data.stickerSets[key]) throw TELEGRAM_ERRORS.stickerSetNameOccupied();
	const deletedAt = store.data.deletedSetNames[key];
	if (deletedAt !== undefined && store.clock() - deletedAt < settings.deletedSetNameCooldownMs) {
		throw TELEGRAM_ERRORS.stickerSetRecentlyDeleted();
	}
}

async function createNewStickerSet(call: MethodCall): Promise<true> {
	const ownerUserId = requireKnownUser(call);
	const name = requireString(call.params, 'name');
	validateStickerSetName(name, call.bot.username);
	validateStickerSetTitle(readString(call.params, 'title') ?? '');
	const type = readString(call.params, 'sticker_type') ?? 'regular';
	if (type !== 'regular') throw badRequest(`sticker_type "${type}" is not supported by the emulator`);
	requireFreeName(call, name);
	const rawStickers = readStickerList(call);
	const stickers: StickerEntry[] = [];
	for (const raw of rawStickers) stickers.push(await readInputSticker(call, raw));
	// Checked again: another call may have taken the name while images were being read.
	requireFreeName(call, name);
	const set: StickerSetRecord = {
		name,
		title: readString(call.params, 'title') ?? '',
		botUsername: call.bot.username,
		ownerUserId,
		createdAt: call.core.store.clock(),
		stickers
	};
	call.core.store.data.stickerSets[name.toLowerCase()] = set;
	announceSet(call, set, 'created');
	return true;
}

/** A set this bot created; Telegram answers STICKERSET_INVALID for anything else. */
function ownSet(call: MethodCall): StickerSetRecord {
	const set = call.core.store.data.stickerSets[requireString(call.params, 'name').toLowerCase()];
	if (!set || set.botUsername !== call.bot.username) throw TELEGRAM_ERRORS.stickerSetInvalid();
	return set;
}

type SetAction = 'created' | 'changed' | 'deleted';

function announceSet(call: MethodCall, set: StickerSetRecord, action: SetAction): void {
	call.core.store.changed();
	call.core.events.publish({ type: 'sticker_set', name: set.name, action });
}

async function addStickerToSet(call: MethodCall): Promise<true> {
	const userId = requireKnownUser(call);
	const set = ownSet(call);
	if (set.ownerUserId !== userId) throw TELEGRAM_ERRORS.stickerSetInvalid();
	if (set.stickers.length >= LIMITS.staticStickersPerSet) throw TELEGRAM_ERRORS.stickersTooMuch();
	const entry = await readInputSticker(call, readJson(call.params, 'sticker', 'InputSticker'));
	set.stickers.push(entry);
	announceSet(call, set, 'changed');
	return true;
}

async function replaceStickerInSet(call: MethodCall): Promise<true> {
	const userId = requireKnownUser(call);
	const set = ownSet(call);
	if (set.ownerUserId !== userId) throw TELEGRAM_ERRORS.stickerSetInvalid();
	const oldFileId = requireString(call.params, 'old_sticker');
	const index = set.stickers.findIndex((entry) => entry.fileId === oldFileId);
	if (index < 0) throw TELEGRAM_ERRORS.stickerNotInSet();
	set.stickers[index] = await readInputSticker(call, readJson(call.params, 'sticker', 'InputSticker'));
	announceSet(call, set, 'changed');
	return true;
}

function deleteStickerFromSet(call: MethodCall): true {
	const fileId = requireString(call.params, 'sticker');
	const set = Object.values(call.core.store.data.stickerSets).find(
		(candidate) =>
			candidate.botUsername === call.bot.username && candidate.stickers.some((entry) => entry.fileId === fileId)
	);
	if (!set) throw TELEGRAM_ERRORS.stickerNotInSet();
	set.stickers = set.stickers.filter((entry) => entry.fileId !== fileId);
	announceSet(call, set, 'changed');
	return true;
}

function setStickerSetTitle(call: MethodCall): true {
	const set = ownSet(call);
	const title = readString(call.params, 'title') ?? '';
	validateStickerSetTitle(title);
	set.title = title;
	announceSet(call, set, 'changed');
	return true;
}

export function stickerSetObject(call: Pick<MethodCall, 'core'>, set: StickerSetRecord): StickerSet {
	const stickers = set.stickers.flatMap((entry) => {
		const record = call.core.store.file(entry.fileId);
		return record ? [stickerObject(record, entry.emoji, set.name)] : [];
	});
	return { name: set.name, title: set.title, sticker_type: 'regular', stickers };
}

function getStickerSet(call: MethodCall): StickerSet {
	const set = call.core.store.data.stickerSets[requireString(call.params, 'name').toLowerCase()];
	if (!set) throw TELEGRAM_ERRORS.stickerSetInvalid();
	return stickerSetObject(call, set);
}

function deleteStickerSet(call: MethodCall): true {
	const set = ownSet(call);
	const key = set.name.toLowerCase();
	delete call.core.store.data.stickerSets[key];
	call.core.store.data.deletedSetNames[key] = call.core.store.clock();
	announceSet(call, set, 'deleted');
	return true;
}

export const stickerMethods: Record<string, MethodHandler> = {
	uploadStickerFile,
	createNewStickerSet,
	addStickerToSet,
	replaceStickerInSet,
	deleteStickerFromSet,
	setStickerSetTitle,
	getStickerSet,
	deleteStickerSet
};
