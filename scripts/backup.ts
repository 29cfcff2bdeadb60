import { existsSync } from 'node:fs';
import path from 'node:path';
import { resolveBackupDir } from '../src/lib/server/backup/backup-files.ts';
import { recordBackupFailure, recordBackupSuccess } from '../src/lib/server/backup/backup-status.ts';
import { takeBackup } from '../src/lib/server/backup/take-backup.ts';
import { ConfigError, getConfig } from '../src/lib/server/config/config.ts';
import { openDatabase, openPostgresDatabase } from '../src/lib/server/db/client.ts';
import { placeOf } from '../src/lib/server/db/database-place.ts';
import { createLogger } from '../src/lib/server/log/logger.ts';
import { systemClock } from '../src/lib/server/time/clock.ts';

// npm run backup — one database backup now (deploy/backup.sh runs this from the daily systemd
// timer; the worker takes one itself when none is about a day old). On PostgreSQL (DATABASE_URL)
// it runs pg_dump. Exit code 0 only on success.
async function main(): Promise<number> {
	const config = getConfig();
	const logger = createLogger('backup', config.LOG_LEVEL);
	const { database } = config;
	const place = placeOf(database);
	if (place.storage === 'file' && !existsSync(place.path)) {
		console.error(`backup failed: no database at ${place.path}`);
		return 1;
	}
	const backupDir = resolveBackupDir(config);
	const db = place.storage === 'server' ? openPostgresDatabase(place.url) : openDatabase(place.path);
	try {
		const result = await takeBackup(database, { backupDir, clock: systemClock, logger });
		await recordBackupSuccess(db, systemClock, result);
		const removed = result.removed.length > 0 ? `; removed ${result.removed.join(', ')}` : '';
		const checked = place.storage === 'server' ? 'archive readable' : 'integrity ok';
		console.log(`backup ok: ${result.file} (${result.bytes} bytes, ${checked}, mode 600)${removed}`);
		return 0;
	} catch (error) {
		await recordBackupFailure(db, systemClock, error).catch(() => undefined);
		console.error(`backup failed: ${(error as Error).message} (nothing was written to ${path.resolve(backupDir)})`);
		return 1;
	} finally {
		await db.$disconnect();
	}
}

main()
	.then((code) => process.exit(code))
	.catch((error: unknown) => {
		console.error(error instanceof ConfigError ? error.message : `backup failed: ${String(error)}`);
		process.exit(1);
	});
