import { kioskErrorText } from '../../i18n/kiosk.ts';
import type { Locale } from '../../i18n/locale.ts';
import type { Db } from '../db/client.ts';
import { takeToken } from '../rate-limits/rate-limit-buckets.repository.ts';
import type { RateLimit } from '../rate-limits/token-bucket.ts';
import type { Clock } from '../time/clock.ts';
import type { Kiosk } from './kiosk-keys.ts';
import type { UploadOutcome } from './photo-upload.ts';

/**
 * HTTP answers of the kiosk API in one place: a stable `error` code the page turns into a sentence
 * in its language, plus an English `message` for anyone calling with curl. Never a stack trace.
 */
export type KioskErrorCode =
	| 'no_kiosk_key'
	| 'bad_request'
	| 'not_found'
	| 'paused'
	| 'bot_not_ready'
	| 'rate_limited'
	| 'wrong_pin'
	| 'pin_locked'
	| 'no_staff_pin'
	| 'too_large'
	| 'not_an_image'
	| 'too_many_pixels'
	| 'damaged_image'
	| 'no_face'
	| 'several_faces'
	| 'face_too_small'
	| 'face_cut_off'
	| 'not_ready'
	| 'already_taken'
	| 'session_closed'
	| 'busy'
	| 'photo_check_failed'
	| 'too_many_streams';

const MESSAGES: Record<KioskErrorCode, string> = {
	no_kiosk_key: 'This device is not registered as a kiosk. Enter the kiosk key from your operator.',
	bad_request: 'The request was not understood.',
	not_found: 'No such session on this kiosk.',
	paused: 'Sticker making is paused for a moment.',
	bot_not_ready: 'The Telegram bot is still starting. Try again in a few seconds.',
	rate_limited: 'Too many requests from this kiosk. Wait a few seconds.',
	wrong_pin: 'Wrong staff PIN.',
	pin_locked: 'Too many wrong staff PINs: this kiosk waits before the next try (see Retry-After).',
	no_staff_pin: 'No staff PIN is set (set one on the console’s Kiosks page).',
	too_large: 'The photo is larger than 15 MB.',
	not_an_image: 'The file is not a photo (JPEG, PNG or WebP).',
	too_many_pixels: 'The photo has too many pixels (over 40 megapixels).',
	damaged_image: 'The photo is damaged or incomplete.',
	no_face: 'No face was found in the photo.',
	several_faces: 'More than one face is in the photo.',
	face_too_small: 'The face is too small in the photo: the guest stands too far from the camera.',
	face_cut_off: 'The face is cut off by the edge of the photo.',
	not_ready: 'The guest has not chosen an outfit yet.',
	already_taken: 'A photo for this session was already taken.',
	session_closed: 'This session is closed.',
	busy: 'A photo for this session is being uploaded right now.',
	photo_check_failed: 'The photo could not be checked just now (the upload checker failed). Take it again.',
	too_many_streams: 'The server has too many live connections open right now. Try again in a minute.'
};

export function kioskError(
	status: number,
	error: KioskErrorCode,
	extra: Record<string, unknown> = {},
	headers: Record<string, string> = {}
): Response {
	return new Response(JSON.stringify({ error, message: MESSAGES[error], ...extra }), {
		status,
		headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers }
	});
}

export function kioskJson(body: unknown, status = 200): Response {
	return new Response(JSON.stringify(body), {
		status,
		headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }
	});
}

/** Per-kiosk limits: 10 at once, then one every 6 s; counted in the database, so shared by every web process. */
export const START_LIMIT: RateLimit = { name: 'kiosk-start', capacity: 10, refillPerSecond: 1 / 6 };
export const UPLOAD_LIMIT: RateLimit = { name: 'kiosk-upload', capacity: 10, refillPerSecond: 1 / 6 };

export async function rateLimited(db: Db, clock: Clock, limit: RateLimit, kiosk: Kiosk): Promise<Response | null> {
	const decision = await takeToken(db, clock, limit, String(kiosk.id));
	if (decision.allowed) return null;
	return kioskError(429, 'rate_limited', {}, { 'retry-after': String(decision.retryAfterSeconds) });
}

/**
 * 413 for size, 415 for "not a photo", 422 for a photo we cannot decode or that shows no usable
 * face, 409/410 for state, 503 when the photo could not be checked (its sentence is the general
 * "something went wrong, try again"). Every refusal also carries `sentence`: what the kiosk tells the guest,
 * in the kiosk's language.
 */
export function uploadResponse(outcome: UploadOutcome, locale: Locale): Response {
	if (outcome.kind === 'enqueued') return kioskJson({ ok: true, jobId: outcome.jobId }, 201);
	const [status, error, extra] = uploadRefusal(outcome);
	return kioskError(status, error, { ...extra, sentence: kioskErrorText(locale, error) });
}

function uploadRefusal(
	outcome: Exclude<UploadOutcome, { kind: 'enqueued' }>
): [number, KioskErrorCode, Record<string, unknown>?] {
	switch (outcome.kind) {
		case 'too_large':
			return [413, 'too_large'];
		case 'rejected':
			if (outcome.problem === 'not_an_image' || outcome.problem === 'unsupported') return [415, 'not_an_image'];
			return [422, outcome.problem === 'too_many_pixels' ? 'too_many_pixels' : 'damaged_image'];
		case 'no_usable_face':
			return [422, outcome.problem];
		case 'not_ready':
			return [409, 'not_ready', { status: outcome.status }];
		case 'already_taken':
		case 'used':
			return [409, 'already_taken'];
		case 'busy':
			return [409, 'busy'];
		case 'check_failed':
			// The session is untouched: the kiosk goes back to the camera and the retake gets a fresh checker.
			return [503, 'photo_check_failed'];
		case 'closed':
			return [410, 'session_closed', { reason: outcome.reason, notice: outcome.notice }];
		default:
			return [404, 'not_found'];
	}
}
