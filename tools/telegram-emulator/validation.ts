import sharp from 'sharp';
import type { InlineKeyboardButton, InlineKeyboardMarkup, KeyboardButton } from 'grammy/types';
import { badRequest, TELEGRAM_ERRORS } from './errors.ts';
import type { FormattedText } from './formatting.ts';
import { isRecord } from './params.ts';

// Telegram's documented limits, checked the way Telegram checks them.

export const LIMITS = {
	textLength: 4096,
	captionLength: 1024,
	callbackDataBytes: 64,
	inlineButtons: 100,
	setNameLength: 64,
	setTitleLength: 64,
	initialStickersMin: 1,
	initialStickersMax: 50,
	staticStickersPerSet: 120,
	stickerSide: 512,
	stickerBytes: 512 * 1024,
	photoBytes: 10 * 1024 * 1024,
	callbackAnswerLength: 200
} as const;

// ── Text ────────────────────────────────────────────────────────────────────

export function validateMessageText(formatted: FormattedText): void {
	if (formatted.text.trim() === '') throw TELEGRAM_ERRORS.textEmpty();
	if (formatted.text.length > LIMITS.textLength) throw TELEGRAM_ERRORS.textTooLong();
}

export function validateCaption(formatted: FormattedText): void {
	if (formatted.text.length > LIMITS.captionLength) throw TELEGRAM_ERRORS.captionTooLong();
}

// ── Keyboards ───────────────────────────────────────────────────────────────

export interface ParsedMarkup {
	inline?: InlineKeyboardMarkup;
	replyKeyboard?: KeyboardButton[][];
	removeKeyboard?: boolean;
}

export function parseReplyMarkup(markup: unknown): ParsedMarkup {
	if (markup === undefined) return {};
	if (!isRecord(markup)) throw badRequest("can't parse reply keyboard markup JSON object");
	if ('inline_keyboard' in markup) return { inline: parseInlineKeyboard(markup.inline_keyboard) };
	if ('keyboard' in markup) return { replyKeyboard: parseReplyKeyboard(markup.keyboard) };
	if (markup.remove_keyboard === true) return { removeKeyboard: true };
	if (markup.force_reply === true) return {};
	throw badRequest("can't parse reply keyboard markup JSON object");
}

function parseInlineKeyboard(rows: unknown): InlineKeyboardMarkup | undefined {
	if (!Array.isArray(rows) || !rows.every(Array.isArray)) {
		throw badRequest('field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays');
	}
	const kept = (rows as unknown[][]).filter((row) => row.length > 0);
	if (kept.flat().length > LIMITS.inlineButtons) throw badRequest('too many inline keyboard buttons');
	const inline_keyboard = kept.map((row) => row.map(parseInlineButton));
	// An empty keyboard is no keyboard: Telegram then omits reply_markup from the message.
	return inline_keyboard.length > 0 ? { inline_keyboard } : undefined;
}

function parseInlineButton(button: unknown): InlineKeyboardButton {
	if (!isRecord(button) || typeof button.text !== 'string') {
		throw badRequest('can\'t parse inline keyboard button: Can\'t find field "text"');
	}
	if (button.text.trim() === '') throw badRequest('text buttons are unallowed in the inline keyboard');
	if (typeof button.callback_data === 'string') {
		const bytes = Buffer.byteLength(button.callback_data);
		if (bytes < 1 || bytes > LIMITS.callbackDataBytes) throw TELEGRAM_ERRORS.buttonDataInvalid();
		return { text: button.text, callback_data: button.callback_data };
	}
	if (typeof button.url === 'string') {
		if (!/^(https?|tg):\/\/[^\s]+$/i.test(button.url)) {
			throw badRequest(`inline keyboard button URL '${button.url}' is invalid: Wrong HTTP URL`);
		}
		return { text: button.text, url: button.url };
	}
	const otherKinds = [
		'login_url',
		'switch_inline_query',
		'switch_inline_query_current_chat',
		'switch_inline_query_chosen_chat',
		'copy_text',
		'web_app',
		'callback_game',
		'pay'
	];
	if (otherKinds.some((kind) => kind in button)) return button as unknown as InlineKeyboardButton;
	throw badRequest("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard");
}

function parseReplyKeyboard(rows: unknown): KeyboardButton[][] {
	if (!Array.isArray(rows) || !rows.every(Array.isArray)) {
		throw badRequest('field "keyboard" of the ReplyKeyboardMarkup should be an Array of Arrays');
	}
	return (rows as unknown[][]).map((row) =>
		row.map((button) => {
			if (typeof button === 'string') return { text: button };
			if (isRecord(button) && typeof button.text === 'string') {
				return button as unknown as KeyboardButton;
			}
			throw badRequest('can\'t parse keyboard button: Field "text" must be of type String');
		})
	);
}

// ── Sticker sets ────────────────────────────────────────────────────────────

export function validateStickerSetName(name: string, botUsername: string): void {
	const shapeOk =
		name.length >= 1 &&
		name.length <= LIMITS.setNameLength &&
		/^[a-zA-Z][a-zA-Z0-9_]*$/.test(name) &&
		!name.includes('__');
	const suffix = `_by_${botUsername.toLowerCase()}`;
	const lower = name.toLowerCase();
	if (!shapeOk || !lower.endsWith(suffix) || lower.length === suffix.length) {
		throw TELEGRAM_ERRORS.stickerSetNameInvalid();
	}
}

export function validateStickerSetTitle(title: string): void {
	if (title.trim().length < 1 || title.length > LIMITS.setTitleLength) {
		throw TELEGRAM_ERRORS.stickerSetTitleInvalid();
	}
}

// ── Images ──────────────────────────────────────────────────────────────────

export interface ImageInfo {
	format: string;
	mime: string;
	width: number;
	height: number;
}

async function readImageInfo(bytes: Buffer): Promise<ImageInfo | undefined> {
	try {
		const meta = await sharp(bytes).metadata();
		if (!meta.format || !meta.width || !meta.height) return undefined;
		const format: string = meta.format;
		return { format, mime: `image/${format}`, width: meta.width, height: meta.height };
	} catch {
		return undefined;
	}
}

/** A static sticker: PNG or WEBP, ≤ 512 KB, one side exactly 512 px and the other at most 512. */
export async function inspectStaticSticker(bytes: Buffer): Promise<ImageInfo> {
	if (bytes.length > LIMITS.stickerBytes) throw TELEGRAM_ERRORS.fileTooBig();
	const info = await readImageInfo(bytes);
	if (!info || (info.format !== 'png' && info.format !== 'webp')) throw TELEGRAM_ERRORS.stickerNotPng();
	const side = LIMITS.stickerSide;
	if (Math.max(info.width, info.height) !== side || Math.min(info.width, info.height) > side) {
		throw TELEGRAM_ERRORS.stickerDimensions();
	}
	return info;
}

/** A photo: ≤ 10 MB, width + height ≤ 10000, aspect ratio ≤ 20. */
export async function inspectPhoto(bytes: Buffer): Promise<ImageInfo> {
	if (bytes.length > LIMITS.photoBytes) throw TELEGRAM_ERRORS.fileTooBig();
	const info = await readImageInfo(bytes);
	if (!info) throw TELEGRAM_ERRORS.imageProcessFailed();
	const ratio = Math.max(info.width, info.height) / Math.min(info.width, info.height);
	if (info.width + info.height > 10_000 || ratio > 20) throw TELEGRAM_ERRORS.photoDimensions();
	return info;
}
