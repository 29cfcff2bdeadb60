import type { Document, File, Message, PhotoSize, Sticker } from 'grammy/types';
import type { MethodCall, MethodHandler } from '../core.ts';
import { badRequest, TELEGRAM_ERRORS } from '../errors.ts';
import { formatText } from '../formatting.ts';
import { isRecord, readJson, readString, requireString } from '../params.ts';
import type { FileRecord } from '../types.ts';
import { inspectPhoto, inspectStaticSticker, validateCaption } from '../validation.ts';
import { extensionFor, readInputBytes, storeFile, type InputBytes } from './input-files.ts';
import { captionFields, readCaption, readMarkup, requireWritableChat, storeBotMessage } from './outgoing.ts';

export function photoSize(record: FileRecord): PhotoSize {
	return {
		file_id: record.fileId,
		file_unique_id: record.fileUniqueId,
		width: record.width ?? 0,
		height: record.height ?? 0,
		file_size: record.size
	};
}

/** A WEBM sticker (InputSticker format "video"); everything else the emulator stores is static. */
export function isVideoSticker(record: FileRecord): boolean {
	return record.mime === 'video/webm';
}

export function stickerObject(record: FileRecord, emoji?: string, setName?: string): Sticker {
	const sticker: Sticker = {
		file_id: record.fileId,
		file_unique_id: record.fileUniqueId,
		type: 'regular',
		width: record.width ?? 512,
		height: record.height ?? 512,
		is_animated: false,
		is_video: isVideoSticker(record),
		file_size: record.size
	};
	if (emoji) sticker.emoji = emoji;
	if (setName) sticker.set_name = setName;
	return sticker;
}

/** Sending a stored photo again keeps its file; anything else becomes a new photo file. */
async function storePhoto(call: MethodCall, input: InputBytes): Promise<FileRecord> {
	if (input.existing?.kind === 'photo') return input.existing;
	const info = await inspectPhoto(input.bytes);
	return storeFile(call.core, 'photo', input, { ...info, ext: extensionFor(info.format) });
}

async function sendPhoto(call: MethodCall): Promise<Message> {
	const chat = requireWritableChat(call);
	const caption = readCaption(call);
	const markup = readMarkup(call);
	const record = await storePhoto(call, await readInputBytes(call, 'photo', call.params.photo));
	return storeBotMessage(call, chat, { photo: [photoSize(record)], ...captionFields(caption) }, markup);
}

async function sendMediaGroup(call: MethodCall): Promise<Message[]> {
	const chat = requireWritableChat(call);
	const media = readJson(call.params, 'media', 'media JSON object');
	if (!Array.isArray(media) || media.length < 2 || media.length > 10) {
		throw badRequest('wrong number of media specified; must be between 2 and 10');
	}
	const groupId = String(call.core.store.clock()) + String(Math.floor(Math.random() * 1000));
	const prepared = [];
	for (const [index, item] of media.entries()) {
		if (!isRecord(item) || item.type !== 'photo') {
			throw badRequest(`media #${index + 1}: only photos are supported by the emulator`);
		}
		const parseMode = typeof item.parse_mode === 'string' ? item.parse_mode : undefined;
		const caption = formatText(String(item.caption ?? ''), parseMode, item.caption_entities);
		validateCaption(caption);
		const record = await storePhoto(call, await readInputBytes(call, `media #${index + 1}`, item.media));
		prepared.push({ photo: [photoSize(record)], media_group_id: groupId, ...captionFields(caption) });
	}
	return prepared.map((content) => storeBotMessage(call, chat, content));
}

async function sendSticker(call: MethodCall): Promise<Message> {
	const chat = requireWritableChat(call);
	const markup = readMarkup(call);
	const input = await readInputBytes(call, 'sticker', call.params.sticker);
	let record = input.existing;
	if (record?.kind !== 'sticker') {
		const info = await inspectStaticSticker(input.bytes);
		record = await storeFile(call.core, 'sticker', input, { ...info, ext: extensionFor(info.format) });
	}
	const setName = Object.values(call.core.store.data.stickerSets).find((set) =>
		set.stickers.some((entry) => entry.fileId === record.fileId)
	)?.name;
	const emoji = readString(call.params, 'emoji');
	return storeBotMessage(call, chat, { sticker: stickerObject(record, emoji, setName) }, markup);
}

async function sendDocument(call: MethodCall): Promise<Message> {
	const chat = requireWritableChat(call);
	const caption = readCaption(call);
	const markup = readMarkup(call);
	const input = await readInputBytes(call, 'document', call.params.document);
	const fileName = input.filename ?? input.existing?.filePath.split('/').pop() ?? 'file';
	const ext = /\.([a-z0-9]{1,8})$/i.exec(fileName)?.[1]?.toLowerCase() ?? 'bin';
	const record = await storeFile(call.core, 'document', input, { ext, mime: 'application/octet-stream' });
	const document: Document = {
		file_id: record.fileId,
		file_unique_id: record.fileUniqueId,
		file_name: fileName,
		file_size: record.size
	};
	return storeBotMessage(call, chat, { document, ...captionFields(caption) }, markup);
}

export function fileObject(record: FileRecord): File {
	const file: File = {
		file_id: record.fileId,
		file_unique_id: record.fileUniqueId,
		file_size: record.size
	};
	if (record.storageKey) file.file_path = record.filePath;
	return file;
}

function getFile(call: MethodCall): File {
	const record = call.core.store.file(requireString(call.params, 'file_id'));
	if (!record) throw TELEGRAM_ERRORS.invalidFileId();
	return fileObject(record);
}

export const mediaMethods: Record<string, MethodHandler> = {
	sendPhoto,
	sendMediaGroup,
	sendSticker,
	sendDocument,
	getFile
};
