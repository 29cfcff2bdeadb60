import type { Clock } from '../time/clock.ts';

/**
 * Limits for long-lived pushes (console live views, kiosk event streams). A stream is allowed once
 * when it opens; these keep that one check from buying access for ever:
 * - it is checked again every `recheckMs` (and by its owner before every push), and ends when
 *   the check says no — signed out, session expired, operator removed or demoted, key revoked;
 * - it ends after `maxDurationMs` whatever happens, and the client reconnects (and is checked anew);
 * - one owner (operator, kiosk) holds at most `perOwner`; a new one pushes out the oldest, which is
 *   usually a connection the client already left (a laptop that slept) but the server has not noticed;
 * - the process holds at most `total`. Beyond it a new stream is refused — unless `shareWhenFull`:
 *   then a privileged owner's stream (the console's owner) pushes out the oldest stream of the
 *   unprivileged owner holding the most, and any other owner's pushes out the oldest stream of
 *   whoever holds at least two more than the newcomer does (a fair share: a few accounts cannot
 *   fill the process and keep the rest out, and two owners never push each other out in turn).
 *   Privileged streams are never pushed out by another owner.
 */
export interface StreamLimits {
	perOwner: number;
	total: number;
	maxDurationMs: number;
	recheckMs: number;
	shareWhenFull?: boolean;
}

/**
 * Why the server ended a stream: `revoked` = the check said no; `failed` = the check itself failed;
 * `too_many` = its owner opened one more than perOwner; `displaced` = the process was full and it
 * made room for another owner's (shareWhenFull).
 */
export type StreamEnd = 'revoked' | 'too_many' | 'displaced' | 'time_limit' | 'failed';

export interface OpenStream {
	/** The check, now (call it before every push); false once the stream has ended. */
	check: () => Promise<boolean>;
	/** The stream is over (client left, or it ended): frees its place. Safe to call twice. */
	close: () => void;
}

export interface OpenOptions {
	/** May push out others' streams when the process is full, and is never pushed out by them (shareWhenFull). */
	privileged?: boolean;
}

interface Entry {
	end: (reason: StreamEnd) => void;
	privileged: boolean;
	/** Opening order: lower is older. */
	seq: number;
}

export class OpenStreams {
	readonly #byOwner = new Map<string, Entry[]>();
	#total = 0;
	#seq = 0;

	constructor(
		readonly limits: StreamLimits,
		private readonly clock: Clock
	) {}

	get size(): number {
		return this.#total;
	}

	/**
	 * A place for one more stream of `owner`, or null when the process is full. `onEnd` runs at most
	 * once, when the stream must stop; the caller then ends it and calls close().
	 */
	open(
		owner: string,
		stillAllowed: () => Promise<boolean>,
		onEnd: (reason: StreamEnd) => void,
		options: OpenOptions = {}
	): OpenStream | null {
		const privileged = options.privileged ?? false;
		const mine = this.#byOwner.get(owner) ?? [];
		if (mine.length >= this.limits.perOwner) mine[0]!.end('too_many');
		if (this.#total >= this.limits.total) this.#makeRoom(owner, privileged);
		if (this.#total >= this.limits.total) return null;
		const openedAt = this.clock.now().getTime();
		let open = true;
		const close = () => {
			if (!open) return;
			open = false;
			clearInterval(timer);
			this.#forget(owner, entry);
		};
		const entry: Entry = {
			privileged,
			seq: this.#seq++,
			end: (reason) => {
				if (!open) return;
				close();
				onEnd(reason);
			}
		};
		const check = async (): Promise<boolean> => {
			if (!open) return false;
			if (this.clock.now().getTime() - openedAt >= this.limits.maxDurationMs) entry.end('time_limit');
			else {
				const allowed = await stillAllowed().catch(() => null);
				if (allowed === null) entry.end('failed');
				else if (!allowed) entry.end('revoked');
			}
			return open;
		};
		// unref: an open stream alone must not keep a stopping process alive.
		const timer = setInterval(() => void check(), this.limits.recheckMs).unref();
		this.#byOwner.set(owner, [...(this.#byOwner.get(owner) ?? []), entry]);
		this.#total++;
		return { check, close };
	}

	/** When full and shareWhenFull: ends the one stream that makes room for `owner`'s, if any may go (see StreamLimits). */
	#makeRoom(owner: string, privileged: boolean): void {
		if (!this.limits.shareWhenFull) return;
		const newcomerWouldHold = (this.#byOwner.get(owner)?.length ?? 0) + 1;
		let victim: Entry | undefined;
		let victimHolds = 0;
		for (const [holder, entries] of this.#byOwner) {
			if (holder === owner) continue;
			const movable = entries.filter((entry) => !entry.privileged);
			if (movable.length === 0) continue;
			const fair = privileged || entries.length >= newcomerWouldHold + 1;
			if (!fair) continue;
			const oldest = movable[0]!;
			if (entries.length > victimHolds || (entries.length === victimHolds && oldest.seq < victim!.seq)) {
				victim = oldest;
				victimHolds = entries.length;
			}
		}
		victim?.end('displaced');
	}

	#forget(owner: string, entry: Entry): void {
		const rest = (this.#byOwner.get(owner) ?? []).filter((e) => e !== entry);
		if (rest.length > 0) this.#byOwner.set(owner, rest);
		else this.#byOwner.delete(owner);
		this.#total--;
	}
}
