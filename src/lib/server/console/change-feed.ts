import type { Db } from '../db/client.ts';
import { dialectOf, type Dialect } from '../db/dialect/dialect.ts';
import type { Logger } from '../log/logger.ts';

/**
 * Live console pages are pushed, not polled by browsers: one cheap query per second (per web
 * process, only while someone watches) reads a change marker over the tables the console shows,
 * and every watcher re-reads its snapshot when the marker moves. Changes made by the worker or by
 * hand in the database file show up the same way as the console's own. Marker SQL is written in
 * what SQLite and PostgreSQL both read (coalesce, sum, ||, a named subquery); joining a group's
 * values is the dialect's. Web processes' heartbeats are left out: every page would re-read its
 * snapshot on each of them, and the pages that show web processes refresh on the worker's beats.
 */
const markerSql = ({ joinedText }: Dialect) => `SELECT
	(SELECT count(*) || ':' || coalesce(max(updated_at), '') FROM jobs) || '|' ||
	coalesce((SELECT ${joinedText("status || '=' || n")} FROM (SELECT status, count(*) AS n FROM jobs GROUP BY status) AS by_status), '') || '|' ||
	(SELECT count(*) || ':' || coalesce(max(updated_at), '') FROM sessions) || '|' ||
	(SELECT count(*) || ':' || coalesce(sum(extra_packs_allowed), 0) || ':' || count(consented_at) || ':' || count(pack_link) FROM users) || '|' ||
	(SELECT count(*) || ':' || coalesce(max(updated_at), '') FROM news_opt_ins) || '|' ||
	(SELECT coalesce(max(id), 0) FROM api_usage) || '|' ||
	(SELECT count(*) || ':' || coalesce(max(updated_at), '') FROM sticker_redraws) || '|' ||
	(SELECT coalesce(max(id), 0) FROM audit_log) || '|' ||
	(SELECT coalesce(max(id), 0) FROM log_entries) || '|' ||
	(SELECT count(*) || ':' || coalesce(max(updated_at), '') FROM settings) || '|' ||
	coalesce((SELECT ${joinedText("id || '@' || heartbeat_at || '#' || busy_slots")} FROM worker_processes WHERE stopped_at IS NULL AND kind = 'worker'), '') || '|' ||
	(SELECT count(*) FROM operators) || ':' || (SELECT count(*) FROM operator_sessions) AS marker`;

export class ChangeFeed {
	#listeners = new Set<() => void>();
	#timer: ReturnType<typeof setInterval> | undefined;
	#last: string | undefined;
	#reading = false;

	/** `logger`: where a marker that cannot be read is told (the page then waits for the next tick). */
	constructor(
		private readonly readMarker: () => Promise<string>,
		private readonly logger: Logger,
		private readonly intervalMs = 1000
	) {}

	/** Calls `listener` after every change; returns the unsubscribe function. */
	subscribe(listener: () => void): () => void {
		this.#listeners.add(listener);
		if (!this.#timer) this.#timer = setInterval(() => void this.#tick(), this.intervalMs);
		return () => {
			this.#listeners.delete(listener);
			if (this.#listeners.size === 0 && this.#timer) {
				clearInterval(this.#timer);
				this.#timer = undefined;
				this.#last = undefined;
			}
		};
	}

	async #tick(): Promise<void> {
		if (this.#reading) return;
		this.#reading = true;
		try {
			const marker = await this.readMarker();
			if (marker === this.#last) return;
			// The first reading notifies too: a change between a watcher's first snapshot and this
			// tick would otherwise wait for the next one (watchers drop identical snapshots).
			this.#last = marker;
			for (const listener of this.#listeners) listener();
		} catch (error) {
			this.logger.warn({ err: error }, 'console change marker could not be read');
		} finally {
			this.#reading = false;
		}
	}
}

/**
 * Feeds over one marker query, one per database client, shared by every watcher in this process.
 * Pages whose tables the shared marker does not watch (leads, messages) make their own with it.
 * The query is written for the client's dialect.
 */
export function markerFeeds(markerSql: (dialect: Dialect) => string): (db: Db, logger: Logger) => ChangeFeed {
	const feeds = new WeakMap<Db, ChangeFeed>();
	return (db, logger) => {
		let feed = feeds.get(db);
		if (!feed) {
			const sql = markerSql(dialectOf(db));
			const read = async () => (await db.$queryRawUnsafe<{ marker: string }[]>(sql))[0]?.marker ?? '';
			feeds.set(db, (feed = new ChangeFeed(read, logger)));
		}
		return feed;
	};
}

/** The console's shared feed (markerSql). */
export const changeFeedFor = markerFeeds(markerSql);

/** Yields once at once, then after each change, until `signal` aborts. */
export async function* watchChanges(feed: ChangeFeed, signal: AbortSignal | undefined): AsyncGenerator<void> {
	let pending = true;
	let wake: (() => void) | undefined;
	const poke = () => {
		pending = true;
		wake?.();
	};
	const unsubscribe = feed.subscribe(poke);
	signal?.addEventListener('abort', poke, { once: true });
	try {
		while (!signal?.aborted) {
			if (!pending) await new Promise<void>((resolve) => (wake = resolve));
			wake = undefined;
			if (signal?.aborted) return;
			pending = false;
			yield;
		}
	} finally {
		unsubscribe();
		signal?.removeEventListener('abort', poke);
	}
}

/** A snapshot now and whenever it differs after a change: what every console page subscribes to. */
export async function* watchSnapshots<T>(
	feed: ChangeFeed,
	signal: AbortSignal | undefined,
	read: () => Promise<T>
): AsyncGenerator<T> {
	let previous = '';
	for await (const _ of watchChanges(feed, signal)) {
		const snapshot = await read();
		const serialised = JSON.stringify(snapshot);
		if (serialised === previous) continue;
		previous = serialised;
		yield snapshot;
	}
}
