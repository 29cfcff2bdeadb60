import type { Db } from '../../lib/server/db/client.ts';
import { recordSweep } from '../../lib/server/backup/backup-status.ts';
import { clearStaleAppearance } from '../../lib/server/lifecycle/appearance.ts';
import type { FileStore } from '../../lib/server/files/file-store.ts';
import { sweepExpiredFiles } from '../../lib/server/lifecycle/file-sweep.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import type { Clock } from '../../lib/server/time/clock.ts';

export interface TtlSweepDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	/** The process's file store: the one place the sweep looks. */
	fileStore: FileStore;
	ttlHours: number;
}

/**
 * The hourly TTL sweep: photo and drawing files by age, then the appearance cards the
 * pipeline missed, then `last_sweep_at` for the console. File failures never stop the pass.
 */
export async function runTtlSweep(deps: TtlSweepDeps): Promise<void> {
	const files = await sweepExpiredFiles(deps);
	const appearanceCleared = await clearStaleAppearance(deps.db, deps.clock);
	await recordSweep(deps.db, deps.clock);
	const level = files.failures > 0 ? 'warn' : 'info';
	deps.logger[level]({ ...files, appearanceCleared, ttlHours: deps.ttlHours }, 'ttl sweep done');
}
