import type { Db } from '../db/client.ts';
import { isOverdue } from '../guests/session-clock.ts';
import type { KioskSessionView } from '../../schemas/kiosk.ts';
import { readSessionView, type KioskDeps } from './kiosk-session.ts';

type Listener = (view: KioskSessionView) => void;

/** How often the watched sessions are looked at; keeps push latency well under 300 ms. */
export const WATCH_INTERVAL_MS = 120;
/** A queued job's place changes without its session changing: refresh it this often. */
const QUEUE_REFRESH_MS = 2_000;

/**
 * Live updates for kiosk pages (SSE). One timer per web process polls every watched session in a
 * single indexed query (status + updated_at by primary key) plus the maintenance row, and builds a
 * full view only for sessions whose fingerprint changed — so N open kiosks cost two cheap queries a
 * tick, not N full reads. Runs only while someone watches.
 */
export class SessionWatchHub {
	readonly #listeners = new Map<string, Set<Listener>>();
	readonly #fingerprints = new Map<string, string>();
	#timer: NodeJS.Timeout | undefined;
	#ticking = false;

	constructor(
		private readonly deps: KioskDeps,
		private readonly onError: (error: unknown) => void = () => undefined,
		private readonly intervalMs = WATCH_INTERVAL_MS
	) {}

	/** Starts pushing changes of `token` to `listener`; the returned function stops it. */
	watch(token: string, listener: Listener): () => void {
		const set = this.#listeners.get(token) ?? new Set<Listener>();
		set.add(listener);
		this.#listeners.set(token, set);
		this.#timer ??= setInterval(() => void this.#tick(), this.intervalMs);
		return () => {
			set.delete(listener);
			if (set.size === 0) {
				this.#listeners.delete(token);
				this.#fingerprints.delete(token);
			}
			if (this.#listeners.size === 0 && this.#timer) {
				clearInterval(this.#timer);
				this.#timer = undefined;
			}
		};
	}

	async #tick(): Promise<void> {
		if (this.#ticking) return;
		this.#ticking = true;
		try {
			const tokens = [...this.#listeners.keys()];
			const now = this.deps.clock.now();
			const [rows, pause] = await Promise.all([
				this.deps.db.session.findMany({
					where: { sessionToken: { in: tokens } },
					select: { sessionToken: true, status: true, updatedAt: true }
				}),
				this.deps.db.setting.findUnique({ where: { key: 'maintenance' }, select: { updatedAt: true } })
			]);
			for (const row of rows) {
				const queueBeat = row.status === 'photo_taken' ? Math.floor(now.getTime() / QUEUE_REFRESH_MS) : 0;
				const overdue = isOverdue(row, now, this.deps.timeouts);
				const fingerprint = `${row.status}|${row.updatedAt}|${pause?.updatedAt ?? '-'}|${queueBeat}|${overdue}`;
				if (this.#fingerprints.get(row.sessionToken) === fingerprint) continue;
				this.#fingerprints.set(row.sessionToken, fingerprint);
				const view = await readSessionView(this.deps, row.sessionToken);
				if (view) for (const listener of this.#listeners.get(row.sessionToken) ?? []) listener(view);
			}
		} catch (error) {
			this.onError(error);
		} finally {
			this.#ticking = false;
		}
	}
}

const hubs = new WeakMap<Db, SessionWatchHub>();

/** The hub of this process's database client (created on first use). */
export function sessionWatchHub(deps: KioskDeps, onError?: (error: unknown) => void): SessionWatchHub {
	let hub = hubs.get(deps.db);
	if (!hub) hubs.set(deps.db, (hub = new SessionWatchHub(deps, onError)));
	return hub;
}
