import type {
	KioskPauseView,
	KioskSessionView,
	KioskStartScreen,
	ReadySticker,
	StartedSession
} from '$lib/schemas/kiosk';
import type { Locale } from '$lib/i18n/locale';
import { kioskApi, uploadPhoto, type ApiResult } from './kiosk-api';
import { queuedScreenMs } from './queued-wait';
import { CLOSED_SCREEN_MS, READY_SCREEN_MS } from './screen-times';
import { UploadRetry } from './upload-retry.svelte';

export type Screen =
	'loading' | 'key' | 'start' | 'paused' | 'qr' | 'telegram' | 'camera' | 'uploading' | 'queued' | 'ready' | 'closed';

const BOT_RETRY_MS = 2_000;
/** The wait after the start limit refused Start, when the answer named none (the limit refills one every 6 s). */
const START_LIMIT_WAIT_S = 6;

/**
 * The kiosk's state: which screen shows, driven by the server's live session view (SSE). The
 * browser never decides a timeout; it only shows the server's deadlines and follows its pushes.
 */
export class KioskFlow {
	screen = $state<Screen>('loading');
	locale = $state<Locale>('ru');
	session = $state<StartedSession | null>(null);
	view = $state<KioskSessionView | null>(null);
	paused = $state(false);
	/** When the queue expects to be back (ISO), when known. */
	pausedUntil = $state<string | null>(null);
	/** The operator's words for guests during a pause, when they gave some. */
	pauseNote = $state<string | null>(null);
	staffPin = $state(false);
	/** What went wrong for the guest (Start, the photo, pairing): shown on the guest's screens. */
	problem = $state<string | null>(null);
	/** What went wrong in the staff panel (wrong PIN, …): shown only there, never to the guest. */
	staffProblem = $state<string | null>(null);
	/**
	 * Until when Start waits (ms, this browser's clock) after the server's start limit refused it:
	 * the Start screen says so with the seconds left and keeps the button off until then.
	 */
	startWaitUntil = $state<number | null>(null);
	/** The Start screen's event name, colours and outfit sample (null until read, or when unreadable: the plain Start). */
	startScreen = $state<KioskStartScreen | null>(null);
	/** The guest's delivered stickers while the "your pack is ready" screen shows. */
	readyStickers = $state<ReadySticker[]>([]);
	uploadProgress = $state(0);
	reconnecting = $state(false);
	/** A photo upload waiting to be sent again after the network dropped it. */
	readonly uploadRetry = new UploadRetry();
	now = $state(Date.now());
	#clockOffsetMs = 0;
	#sessionEvents: EventSource | null = null;
	#kioskEvents: EventSource | null = null;
	#returnTimer: ReturnType<typeof setTimeout> | undefined;
	#returnAt = $state<number | null>(null);
	/** The session whose ready pack was asked for (once per session). */
	#readyAsked: string | null = null;

	constructor(locale: Locale) {
		this.locale = locale;
	}

	/** Seconds until a server-side deadline, by the server's clock. */
	secondsUntil(iso: string | null): number | null {
		return iso ? this.#secondsLeft(Date.parse(iso) - this.#clockOffsetMs) : null;
	}

	/** Seconds until Start may be tapped again after the start limit refused it (0: it may now). */
	get startWaitSeconds(): number {
		return this.startWaitUntil === null ? 0 : this.#secondsLeft(this.startWaitUntil);
	}

	get returnInSeconds(): number | null {
		return this.#returnAt === null ? null : this.#secondsLeft(this.#returnAt);
	}

	/** Whole seconds from the tablet's `now` to a moment on its clock, rounded up, never below 0. */
	#secondsLeft(atMs: number): number {
		return Math.max(0, Math.ceil((atMs - this.now) / 1000));
	}

	tick(): void {
		this.now = Date.now();
	}

	async init(): Promise<void> {
		const hello = await kioskApi.hello();
		if (!hello.ok) {
			this.screen = hello.status === 401 ? 'key' : 'start';
			if (hello.status !== 401) this.problem = hello.error;
			return;
		}
		this.#applyPause(hello.data);
		this.staffPin = hello.data.staffPin;
		void this.#loadStartScreen();
		this.#followKiosk();
		this.backToStart();
	}

	async saveKey(key: string): Promise<void> {
		const saved = await kioskApi.saveKey(key);
		if (!saved.ok) {
			this.problem = saved.error;
			return;
		}
		this.problem = null;
		await this.init();
	}

	/**
	 * The console's pairing link (/kiosk#pair=KEY): the key is saved as if typed in. A key the
	 * server refuses leaves the pairing screen up, saying the link does not work.
	 */
	async pair(key: string): Promise<void> {
		const saved = await kioskApi.saveKey(key);
		if (!saved.ok) {
			this.problem = saved.error === 'no_kiosk_key' ? 'pairing_refused' : saved.error;
			this.screen = 'key';
			return;
		}
		this.problem = null;
		await this.init();
	}

	/** The key was revoked (any call answered 401): back to the pairing screen, nothing of the session kept. */
	unpaired(): void {
		this.dispose();
		this.session = null;
		this.view = null;
		this.screen = 'key';
	}

	async start(): Promise<void> {
		this.problem = null;
		const started = await kioskApi.start();
		if (!started.ok && started.status === 401) return this.unpaired();
		if (!started.ok && started.error === 'rate_limited') {
			// Many Starts in a row (a queue of guests, a child tapping): the server counts them per kiosk.
			this.tick();
			this.startWaitUntil = this.now + (started.retryAfterSeconds ?? START_LIMIT_WAIT_S) * 1000;
			return;
		}
		if (!started.ok) {
			if (started.error === 'paused') this.paused = true;
			this.problem = started.error;
			if (started.error === 'bot_not_ready')
				setTimeout(() => this.screen === 'start' && void this.start(), BOT_RETRY_MS);
			if (started.error === 'paused') this.screen = 'paused';
			return;
		}
		this.session = started.data;
		this.#applyView(started.data.view);
		this.#followSession(started.data.token);
	}

	/** The camera could not start: the session closes as camera_error and the guest is told. */
	async cameraFailed(): Promise<void> {
		if (!this.session) return;
		await kioskApi.close(this.session.token, 'camera_error');
		const view = await kioskApi.session(this.session.token);
		if (view.ok) this.#applyView(view.data);
	}

	/**
	 * The guest pressed Cancel (QR, Telegram or camera screen): the session closes as kiosk_cancel,
	 * so the bot tells the guest at their next tap, and the kiosk is back at Start at once. A session
	 * the server already ended (or a failed call: the server's deadline closes it anyway) changes nothing.
	 */
	async cancel(): Promise<void> {
		const session = this.session;
		this.uploadRetry.stop();
		this.backToStart();
		if (session) await kioskApi.close(session.token, 'kiosk_cancel');
	}

	/**
	 * Sends the photo; a dropped connection or a server hiccup is retried with backoff (the upload
	 * retry shows when, and an `online` event sends it at once) until it gets an answer or the guest
	 * cancels. A photo that did arrive answers already_taken on the retry: one job, one pack.
	 */
	async upload(photo: Blob): Promise<void> {
		const session = this.session;
		if (!session) return;
		this.screen = 'uploading';
		this.uploadProgress = 0;
		this.problem = null;
		const result = await this.uploadRetry.run(() =>
			uploadPhoto(session.token, photo, this.locale, (fraction) => (this.uploadProgress = fraction))
		);
		if (!result || this.session?.token !== session.token) return; // cancelled while waiting
		await this.#uploadAnswered(result);
	}

	async #uploadAnswered(result: ApiResult<{ jobId: number }>): Promise<void> {
		if (!this.session) return;
		if (result.ok || result.error === 'already_taken') {
			this.uploadProgress = 1;
			const view = await kioskApi.session(this.session.token);
			if (view.ok) this.#applyView(view.data);
			return;
		}
		this.problem = result.error;
		if (result.error === 'session_closed') {
			const view = await kioskApi.session(this.session.token);
			if (view.ok) this.#applyView(view.data);
			return;
		}
		// Refused (no usable face, damaged, …): the session is still open, back to the camera to retake.
		this.screen = 'camera';
	}

	async staffReset(pin: string): Promise<boolean> {
		const result = await kioskApi.staffReset(pin);
		if (!result.ok && result.status === 401) {
			this.unpaired();
			return true;
		}
		if (!result.ok) {
			this.staffProblem = result.error;
			return false;
		}
		this.staffProblem = null;
		this.backToStart();
		return true;
	}

	backToStart(): void {
		this.#sessionEvents?.close();
		this.#sessionEvents = null;
		clearTimeout(this.#returnTimer);
		this.#returnAt = null;
		this.session = null;
		this.view = null;
		this.readyStickers = [];
		const wasAway = this.screen !== 'start' && this.screen !== 'paused' && this.screen !== 'loading';
		this.screen = this.paused ? 'paused' : 'start';
		// The kiosk's event may have changed (started, ended, recoloured) while a guest was busy.
		if (wasAway) void this.#loadStartScreen();
	}

	async #loadStartScreen(): Promise<void> {
		const screen = await kioskApi.startScreen();
		if (screen.ok) this.startScreen = screen.data;
	}

	dispose(): void {
		this.uploadRetry.stop();
		this.#sessionEvents?.close();
		this.#kioskEvents?.close();
		clearTimeout(this.#returnTimer);
	}

	#followSession(token: string): void {
		this.#sessionEvents?.close();
		const events = new EventSource(`/api/kiosk/sessions/${token}/events`);
		events.addEventListener('session', (event) => {
			this.reconnecting = false;
			this.#applyView(JSON.parse((event as MessageEvent<string>).data) as KioskSessionView);
		});
		events.onerror = () => (this.reconnecting = true);
		this.#listenForServerEnd(events);
		this.#sessionEvents = events;
	}

	#followKiosk(): void {
		this.#kioskEvents?.close();
		const events = new EventSource('/api/kiosk/events');
		events.addEventListener('kiosk', (event) => {
			this.#applyPause(JSON.parse((event as MessageEvent<string>).data) as KioskPauseView);
			if (this.screen === 'start' && this.paused) this.screen = 'paused';
			else if (this.screen === 'paused' && !this.paused) this.screen = 'start';
		});
		this.#listenForServerEnd(events);
		this.#kioskEvents = events;
	}

	#applyPause(state: KioskPauseView): void {
		this.paused = state.paused;
		this.pausedUntil = state.pausedUntil;
		this.pauseNote = state.pauseNote;
	}

	/** The server ended a stream for good: the key was revoked (ask for it again), or newer streams of this kiosk replaced it. */
	#listenForServerEnd(events: EventSource): void {
		events.addEventListener('closed', () => events.close());
		events.addEventListener('unauthorised', () => this.unpaired());
	}

	#applyView(view: KioskSessionView): void {
		if (this.session && view.token !== this.session.token) return;
		this.#clockOffsetMs = Date.parse(view.serverNow) - Date.now();
		this.view = view;
		// The server has the photo (a try whose answer was lost) or the session ended: nothing to send again.
		if (view.status !== 'template_chosen') this.uploadRetry.stop();
		this.screen = this.#screenFor(view);
		if (this.screen === 'queued' || this.screen === 'closed')
			this.#returnLater(this.screen === 'queued' ? queuedScreenMs(view) : CLOSED_SCREEN_MS);
		if (this.screen === 'queued' && view.queue?.status === 'done') void this.#showReady(view.token);
	}

	/**
	 * The link is sent while the guest still looks at "being drawn": their stickers, then Start. The
	 * server serves them only to this kiosk, for its latest session, shortly after the link; when it
	 * says no (or has none) the "being drawn" screen simply runs out as before.
	 */
	async #showReady(token: string): Promise<void> {
		if (this.#readyAsked === token) return;
		this.#readyAsked = token;
		const ready = await kioskApi.readyStickers(token);
		if (!ready.ok || ready.data.stickers.length === 0) return;
		if (this.session?.token !== token || this.screen !== 'queued') return; // the guest moved on meanwhile
		this.readyStickers = ready.data.stickers;
		this.screen = 'ready';
		clearTimeout(this.#returnTimer);
		this.#returnAt = null;
		this.#returnLater(READY_SCREEN_MS);
	}

	#screenFor(view: KioskSessionView): Screen {
		switch (view.status) {
			case 'idle':
				return 'qr';
			case 'linked':
			case 'consented':
				return 'telegram';
			case 'template_chosen':
				return this.screen === 'uploading' ? 'uploading' : 'camera';
			case 'photo_taken':
				return this.screen === 'ready' ? 'ready' : 'queued';
			default:
				return 'closed';
		}
	}

	#returnLater(ms: number): void {
		if (this.#returnAt !== null) return;
		this.#returnAt = Date.now() + ms;
		this.#returnTimer = setTimeout(() => this.backToStart(), ms);
	}
}
