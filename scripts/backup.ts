import { existsSync } from 'node:fs';
import path from 'node:path';
import { resolveBackupDir } from '../src/lib/server/backup/backup-files.ts';
import { recordBackupFailure, recordBackupSuccess } from '../src/lib/server/backup/backup-status.ts';
import { createBackup } from '../src/lib/server/backup/create-backup.ts';
import { ConfigError, getConfig } from '../src/lib/server/config/config.ts';
import { openDatabase } from '../src/lib/server/db/client.ts';
import { createLogger } from '../src/lib/server/log/logger.ts';
import { systemClock } from '../src/lib/server/time/clock.ts';

// npm run backup — one database backup now (deploy/backup.sh runs this from the daily systemd
// timer; the worker takes one itself when none is about a day old). Exit code 0 only on success.
async function main(): Promise<number> {
	const config = getConfig();
	const logger = createLogger('backup', config.LOG_LEVEL);
	if (!existsSync(config.dbPath)) {
		console.error(`backup failed: no database at ${config.dbPath}`);
		return 1;
	}
	const backupDir = resolveBackupDir(config);
	const db = openDatabase(config.dbPath);
	try {
		const result = await createBackup({ dbPath: config.dbPath, backupDir, clock: systemClock, logger });
		await recordBackupSuccess(db, systemClock, result);
		const removed = result.removed.length > 0 ? `; removed ${result.removed.join(', ')}` : '';
		console.log(`backup ok: ${result.file} (${result.bytes} bytes, integrity ok, mode 600)${removed}`);
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
