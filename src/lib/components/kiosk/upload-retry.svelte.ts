import type { ApiResult } from './kiosk-api';

/** Waits between tries: short at first (a Wi-Fi blip), then every 10 s until the network is back. */
export const UPLOAD_RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 10_000];

/**
 * No answer from our server: the connection dropped (status 0) or the proxy in front of it could
 * not reach it (502, 504 while the web process restarts). Every other status is the server's answer
 * (a refused photo, a closed session, 503 photo_check_failed asks for a retake) and is final.
 */
export function isUnanswered(result: ApiResult<unknown>): boolean {
	return !result.ok && (result.status === 0 || result.status === 502 || result.status === 504);
}

/**
 * The kiosk's photo upload on flaky venue Wi-Fi: sends again with backoff until the server answers,
 * with what the screen shows (which try, when the next one goes). The browser's `online` event or
 * the guest's "Try now" sends at once; `stop()` (Cancel, the page leaving) ends the wait, and
 * `run` then resolves to null.
 */
export class UploadRetry {
	/** The try that failed last (1 = the first send), 0 while none has failed. */
	failedTries = $state(0);
	/** When the next try goes (epoch ms), while waiting for it. */
	nextTryAt = $state<number | null>(null);
	#wake: (() => void) | null = null;
	#stopped = false;

	async run<T>(send: () => Promise<ApiResult<T>>): Promise<ApiResult<T> | null> {
		this.#stopped = false;
		this.failedTries = 0;
		for (;;) {
			const result = await send();
			if (this.#stopped) return null;
			if (!isUnanswered(result)) return this.#done(result);
			this.failedTries += 1;
			await this.#wait(UPLOAD_RETRY_DELAYS_MS[Math.min(this.failedTries, UPLOAD_RETRY_DELAYS_MS.length) - 1]!);
			if (this.#stopped) return null;
		}
	}

	/** Sends the waiting upload now (the guest's button). */
	tryNow(): void {
		this.#wake?.();
	}

	stop(): void {
		this.#stopped = true;
		this.#wake?.();
	}

	#done<T>(result: ApiResult<T>): ApiResult<T> {
		this.failedTries = 0;
		this.nextTryAt = null;
		return result;
	}

	#wait(ms: number): Promise<void> {
		this.nextTryAt = Date.now() + ms;
		return new Promise((resolve) => {
			const wake = () => {
				clearTimeout(timer);
				window.removeEventListener('online', wake);
				this.#wake = null;
				this.nextTryAt = null;
				resolve();
			};
			const timer = setTimeout(wake, ms);
			window.addEventListener('online', wake);
			this.#wake = wake;
		});
	}
}
