import { pseudonymForGuest } from '../lifecycle/pseudonym.ts';

/**
 * What a guest wrote or was sent, and their Telegram ids, kept out of `log_entries` (the console's
 * Logs page, which viewers read, and every backup of the database). Applied to a line's fields
 * before the row is written:
 * - a Telegram payload — grammY's `payload` on a failed call (the message text, the chat), an
 *   `update` or a `message` object — keeps its shape and its numbers, but every string in it is
 *   removed and every id in it pseudonymised;
 * - elsewhere, fields named for a text (`text`, `caption`, names, `username`, `phone`, `comment`) are
 *   removed, and fields named for a Telegram id (`chat_id`, `userId`, `telegramUserId`, `by`, …) are
 *   pseudonymised when they hold a number.
 * A pseudonym is the audit log's and the erasure ledger's `g_<24 hex>` (lifecycle/pseudonym.ts), so
 * an operator can still see that two lines are about the same person, not who it is.
 */
export type Pseudonymise = (telegramId: bigint) => string;

export const REMOVED = '[removed]';

/** Without the key (lines logged before it was read) an id is only marked. */
export function pseudonymiserFor(key: Buffer | undefined): Pseudonymise {
	return key ? (id) => pseudonymForGuest(key, id) : () => '[telegram id]';
}

const PAYLOAD_KEYS = new Set([
	'payload',
	'update',
	'message',
	'edited_message',
	'channel_post',
	'callback_query',
	'my_chat_member',
	'reply_to_message',
	'result'
]);
const TEXT_KEYS = new Set([
	'text',
	'caption',
	'first_name',
	'last_name',
	'firstname',
	'lastname',
	'username',
	'phone',
	'phone_number',
	'comment',
	'bio',
	'query'
]);
const ID_KEY = /^(chat_?id|user_?id|telegram_?user_?id|from_?id|sender_?id|by)$/i;
const ID_VALUE = /^-?\d{1,20}$/;

export function scrubGuestData(fields: Record<string, unknown>, pseudonymise: Pseudonymise): Record<string, unknown> {
	return scrubObject(fields, pseudonymise, false);
}

function scrubObject(
	value: Record<string, unknown>,
	pseudonymise: Pseudonymise,
	inPayload: boolean
): Record<string, unknown> {
	return Object.fromEntries(
		Object.entries(value).map(([key, field]) => [key, scrubField(key, field, pseudonymise, inPayload)])
	);
}

function scrubField(key: string, field: unknown, pseudonymise: Pseudonymise, inPayload: boolean): unknown {
	const idKey = ID_KEY.test(key) || (inPayload && key === 'id');
	if (idKey && isTelegramId(field)) return pseudonymise(BigInt(field as number | string));
	if (Array.isArray(field)) return field.map((item) => scrubField(key, item, pseudonymise, inPayload));
	if (field !== null && typeof field === 'object') {
		return scrubObject(
			field as Record<string, unknown>,
			pseudonymise,
			inPayload || PAYLOAD_KEYS.has(key.toLowerCase())
		);
	}
	if (typeof field === 'string' && (inPayload || TEXT_KEYS.has(key.toLowerCase()))) return REMOVED;
	return field;
}

function isTelegramId(field: unknown): boolean {
	return (typeof field === 'number' && Number.isInteger(field)) || (typeof field === 'string' && ID_VALUE.test(field));
}
