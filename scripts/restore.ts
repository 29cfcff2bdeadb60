import { existsSync } from 'node:fs';
import path from 'node:path';
import { listBackups, resolveBackupDir } from '../src/lib/server/backup/backup-files.ts';
import { RestoreError, restoreBackup, type RestoreResult } from '../src/lib/server/backup/restore.ts';
import { PgToolError } from '../src/lib/server/backup/pg-tools.ts';
import { restorePgBackup } from '../src/lib/server/backup/restore-pg.ts';
import { ConfigError, getConfig } from '../src/lib/server/config/config.ts';
import { placeOf } from '../src/lib/server/db/database-place.ts';
import { loadPseudonymKey } from '../src/lib/server/lifecycle/pseudonym.ts';
import { systemClock } from '../src/lib/server/time/clock.ts';

const USAGE = `usage: npm run restore -- <backup file | file name in BACKUP_DIR | latest> [--force] [--without-replay]
       npm run restore -- --list
Stop the services first (systemctl stop sticker-bot sticker-api). The current database is kept as
app.db.bak-<ts>-before-restore (on PostgreSQL: before-restore-<ts>.pgdump next to the backup);
erasures made after the backup are applied again.
  --force           restore although the worker or the web process holds its lock in DATA_DIR
                    (main.lock, web.lock), or on PostgreSQL a worker's or web process's heartbeat is fresh
  --without-replay  restore although the current database is unreadable (later erasures cannot be re-applied)`;

function findBackup(choice: string, backupDir: string): string | null {
	if (choice === 'latest') return listBackups(backupDir)[0]?.path ?? null;
	if (existsSync(choice)) return path.resolve(choice);
	const inDir = path.join(backupDir, choice);
	return existsSync(inDir) ? inDir : null;
}

function printResult(file: string, result: RestoreResult): void {
	console.log(`restored ${file} (taken ${result.backupTakenAt})`);
	console.log(result.keptAside ? `previous database kept as ${result.keptAside}` : 'there was no previous database');
	if (result.reapplied)
		console.log(`erasures re-applied: ${result.reapplied.guests} guest(s), ${result.reapplied.leads} lead(s)`);
	else console.log('erasures were NOT re-applied (--without-replay): erase again anything erased after the backup');
	for (const [table, count] of Object.entries(result.counts)) console.log(`  ${table.padEnd(24)} ${count}`);
	console.log('start the services again: systemctl start sticker-api sticker-bot');
}

async function main(argv: string[]): Promise<number> {
	const config = getConfig();
	const backupDir = resolveBackupDir(config);
	if (argv.includes('--list')) {
		for (const b of listBackups(backupDir)) console.log(`${b.name}  ${b.bytes} bytes`);
		return 0;
	}
	const choice = argv.find((a) => !a.startsWith('--'));
	if (!choice) return (console.error(USAGE), 2);
	const file = findBackup(choice, backupDir);
	if (!file) return (console.error(`restore refused: no backup "${choice}" (see npm run restore -- --list)`), 1);
	const common = {
		backupFile: file,
		clock: systemClock,
		pseudonymKey: loadPseudonymKey(config.dataDir),
		force: argv.includes('--force'),
		withoutReplay: argv.includes('--without-replay')
	};
	const place = placeOf(config.database);
	const result =
		place.storage === 'server'
			? await restorePgBackup({ ...common, url: place.url })
			: await restoreBackup({ ...common, dbPath: place.path, dataDir: config.dataDir });
	printResult(file, result);
	return 0;
}

main(process.argv.slice(2))
	.then((code) => process.exit(code))
	.catch((error: unknown) => {
		if (error instanceof RestoreError || error instanceof ConfigError)
			console.error(`restore refused: ${error.message}`);
		else if (error instanceof PgToolError) console.error(`restore failed: ${error.message}`);
		else console.error(`restore failed: ${String((error as Error)?.stack ?? error)}`);
		process.exit(1);
	});
