import {
	acquireLease,
	releaseLease,
	renewLease,
	seizeLease,
	type LeaseTerms
} from '../../lib/server/fleet/leader-lease.repository.ts';
import type { Db } from '../../lib/server/db/client.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import { SECOND, type Clock } from '../../lib/server/time/clock.ts';

export const UPDATES_LEASE_NAME = 'telegram-updates';
/** How often the keeper renews (or, without the lease, tries to take it). */
export const UPDATES_LEASE_TICK_MS = 5 * SECOND;
/** A holder that stopped renewing loses the lease after this long; another worker then polls. */
export const UPDATES_LEASE_TTL_MS = 15 * SECOND;

/** What the keeper switches on and off: the bot's long polling (BotRunner). */
export interface UpdatesPoller {
	start(): void;
	stop(): Promise<void>;
}

interface KeeperDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	poller: UpdatesPoller;
	holder: string;
	/** The only worker on this database (SQLite): it takes the lease at once, whoever left it. */
	sole: boolean;
}

/**
 * Telegram gives updates to one getUpdates consumer at a time; a second poller makes both fail
 * with 409 Conflict. So of all workers only the holder of the `telegram-updates` lease polls. Each
 * tick the holder renews it; the others try to take it, which works once a holder stopped renewing
 * for UPDATES_LEASE_TTL_MS. A renewal that fails or finds the lease taken stops polling at once:
 * a worker that cannot prove it still holds the lease must not keep consuming updates.
 */
export class UpdatesLeaseKeeper {
	readonly #deps: KeeperDeps;
	readonly #terms: LeaseTerms;
	/** When our lease runs out if it is not renewed; undefined while we do not hold it. */
	#heldUntil: number | undefined;
	#stopped = false;

	constructor(deps: KeeperDeps) {
		this.#deps = deps;
		this.#terms = { name: UPDATES_LEASE_NAME, holder: deps.holder, ttlMs: UPDATES_LEASE_TTL_MS };
	}

	get holding(): boolean {
		return this.#heldUntil !== undefined;
	}

	async tick(): Promise<void> {
		if (this.#stopped) return;
		if (this.holding) await this.#renew();
		else await this.#acquire();
	}

	/** Stops polling and gives the lease up, so another worker takes over without waiting for expiry. */
	async stop(): Promise<void> {
		this.#stopped = true;
		if (!this.holding) return;
		this.#heldUntil = undefined;
		await this.#deps.poller.stop();
		await releaseLease(this.#deps.db, this.#terms).catch((error: unknown) =>
			this.#deps.logger.warn({ err: error }, 'could not release the Telegram updates lease; it expires on its own')
		);
	}

	async #acquire(): Promise<void> {
		const { db, clock, logger, poller, sole } = this.#deps;
		const startedAt = clock.now().getTime();
		if (sole) await seizeLease(db, clock, this.#terms);
		else if (!(await acquireLease(db, clock, this.#terms))) return;
		if (this.#stopped) return void (await releaseLease(db, this.#terms));
		this.#heldUntil = startedAt + UPDATES_LEASE_TTL_MS;
		logger.info({ holder: this.#terms.holder }, 'this worker holds the Telegram updates lease; polling');
		poller.start();
	}

	async #renew(): Promise<void> {
		const { db, clock, logger } = this.#deps;
		const startedAt = clock.now().getTime();
		// Past the expiry another worker may already poll: renewing now would only hide the overlap.
		let renewed = startedAt < (this.#heldUntil ?? 0);
		if (renewed) {
			try {
				renewed = await renewLease(db, clock, this.#terms);
			} catch (error) {
				logger.warn({ err: error }, 'renewing the Telegram updates lease failed');
				renewed = false;
			}
		}
		if (renewed) {
			this.#heldUntil = startedAt + UPDATES_LEASE_TTL_MS;
			return;
		}
		this.#heldUntil = undefined;
		logger.warn('the Telegram updates lease is no longer ours; polling stopped until this worker takes it again');
		await this.#deps.poller.stop();
	}
}
