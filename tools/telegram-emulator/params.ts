import { badRequest, TELEGRAM_ERRORS } from './errors.ts';

/**
 * Method parameters as they arrive: typed values from a JSON body, strings from a query, a
 * form-urlencoded or a multipart body (where objects are JSON text). Readers accept both.
 */
export type Params = Record<string, unknown>;

export function readString(params: Params, name: string): string | undefined {
	const value = params[name];
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	throw badRequest(`field "${name}" must be of type String`);
}

export function requireString(params: Params, name: string): string {
	const value = readString(params, name);
	if (value === undefined || value === '') throw badRequest(`${name} is empty`);
	return value;
}

export function readInt(params: Params, name: string): number | undefined {
	const value = params[name];
	if (value === undefined || value === null || value === '') return undefined;
	const number = typeof value === 'number' ? value : Number(value);
	if (!Number.isSafeInteger(number)) throw badRequest(`field "${name}" must be of type Integer`);
	return number;
}

export function requireInt(params: Params, name: string): number {
	const value = readInt(params, name);
	if (value === undefined) throw badRequest(`${name} is empty`);
	return value;
}

export function readBool(params: Params, name: string): boolean | undefined {
	const value = params[name];
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'boolean') return value;
	if (value === 'true' || value === '1') return true;
	if (value === 'false' || value === '0') return false;
	throw badRequest(`field "${name}" must be of type Boolean`);
}

/** An object parameter: already parsed (JSON body) or JSON text (form bodies). */
export function readJson(params: Params, name: string, what = `${name} JSON object`): unknown {
	const value = params[name];
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value) as unknown;
	} catch {
		throw badRequest(`can't parse ${what}`);
	}
}

/** chat_id may be a number or an @username; the emulator knows chats by number only. */
export function readChatId(params: Params): number {
	const value = params.chat_id;
	if (value === undefined || value === null || value === '') throw badRequest('chat_id is empty');
	const number = typeof value === 'number' ? value : Number(value);
	if (!Number.isSafeInteger(number)) throw TELEGRAM_ERRORS.chatNotFound();
	return number;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
