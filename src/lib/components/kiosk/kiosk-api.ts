import type {
	KIOSK_CLOSE_REASONS,
	KioskPauseView,
	KioskSessionView,
	KioskStartScreen,
	ReadySticker,
	StartedSession
} from '$lib/schemas/kiosk';
import type { Locale } from '$lib/i18n/locale';

/**
 * The kiosk page's calls to /api/kiosk. Network failures are retried with capped backoff. A refusal
 * carries the server's Retry-After, when it sent one (a rate limit says when to try again).
 */
export type ApiResult<T> =
	{ ok: true; data: T } | { ok: false; status: number; error: string; retryAfterSeconds?: number };

const BACKOFF_MS = [300, 1_000, 2_000, 4_000];

async function call<T>(
	method: string,
	path: string,
	body?: unknown,
	retries = BACKOFF_MS.length
): Promise<ApiResult<T>> {
	for (let attempt = 0; ; attempt++) {
		try {
			const response = await fetch(`/api/kiosk${path}`, {
				method,
				headers: body === undefined ? undefined : { 'content-type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body)
			});
			const parsed = (await response.json().catch(() => ({}))) as Record<string, unknown>;
			if (response.ok) return { ok: true, data: parsed as T };
			if (response.status >= 500 && response.status !== 503 && attempt < retries) throw new Error('server error');
			return { ok: false, status: response.status, error: String(parsed.error ?? 'other'), ...retryAfter(response) };
		} catch {
			if (attempt >= retries) return { ok: false, status: 0, error: 'network' };
			await new Promise((resolve) => setTimeout(resolve, BACKOFF_MS[attempt] ?? 4_000));
		}
	}
}

/** Retry-After in seconds (the kiosk API sends whole seconds), when the answer has one. */
function retryAfter(response: Response): { retryAfterSeconds?: number } {
	const seconds = Number(response.headers.get('retry-after') ?? NaN);
	return Number.isFinite(seconds) && seconds > 0 ? { retryAfterSeconds: seconds } : {};
}

export const kioskApi = {
	hello: () => call<{ kiosk: { name: string }; staffPin: boolean } & KioskPauseView>('POST', '/hello', {}),
	saveKey: (key: string) => call<{ kiosk: { name: string } }>('POST', '/key', { key }, 0),
	start: () => call<StartedSession>('POST', '/sessions', {}, 1),
	session: (token: string) => call<KioskSessionView>('GET', `/sessions/${token}`),
	close: (token: string, reason: (typeof KIOSK_CLOSE_REASONS)[number]) =>
		call<{ closed: boolean }>('POST', `/sessions/${token}/close`, { reason }),
	staffReset: (pin: string) => call<{ closed: number }>('POST', '/staff-reset', { pin }, 0),
	startScreen: () => call<KioskStartScreen>('GET', '/start-screen', undefined, 1),
	readyStickers: (token: string) =>
		call<{ stickers: ReadySticker[] }>('GET', `/sessions/${token}/stickers`, undefined, 1)
};

/**
 * Uploads the photo with progress (fetch cannot report upload progress; XMLHttpRequest can). The
 * kiosk's language goes along, so a refusal's `sentence` is in it.
 */
export function uploadPhoto(
	token: string,
	photo: Blob,
	locale: Locale,
	onProgress: (fraction: number) => void
): Promise<ApiResult<{ jobId: number }>> {
	return new Promise((resolve) => {
		const xhr = new XMLHttpRequest();
		xhr.open('POST', `/api/kiosk/sessions/${token}/photo?locale=${locale}`);
		xhr.setRequestHeader('content-type', photo.type || 'application/octet-stream');
		xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
		xhr.onload = () => {
			let parsed: Record<string, unknown> = {};
			try {
				parsed = JSON.parse(xhr.responseText) as Record<string, unknown>;
			} catch {
				/* not JSON: keep the status */
			}
			if (xhr.status === 201) resolve({ ok: true, data: parsed as { jobId: number } });
			else resolve({ ok: false, status: xhr.status, error: String(parsed.error ?? 'other') });
		};
		xhr.onerror = () => resolve({ ok: false, status: 0, error: 'network' });
		xhr.send(photo);
	});
}
