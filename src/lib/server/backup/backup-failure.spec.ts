import { describe, expect, it } from 'vitest';
import { backupFailureCause } from './backup-failure.ts';

/** Stored backup errors (what recordBackupFailure keeps: paths, tools' stderr) reduced to a cause the page may show. */
describe('a failed backup’s cause', () => {
	it('knows the disk being full, from Node and from pg_dump', () => {
		expect(backupFailureCause("ENOSPC: no space left on device, write '/srv/kiosk/backups/app.db.tmp'")).toBe(
			'disk-full'
		);
		expect(
			backupFailureCause('pg_dump failed: pg_dump: error: could not write to output file: No space left on device')
		).toBe('disk-full');
	});

	it('knows a folder the worker may not write to', () => {
		expect(backupFailureCause("EACCES: permission denied, mkdir '/srv/kiosk/backups'")).toBe('no-permission');
	});

	it('knows a missing pg_dump and a database that does not answer', () => {
		expect(
			backupFailureCause(
				'no pg_dump of PostgreSQL 16 found under /usr/lib/postgresql/*/bin or on PATH: apt-get install -y postgresql-client-16'
			)
		).toBe('tool-missing');
		expect(
			backupFailureCause(
				'pg_dump failed: pg_dump: error: connection to server at "db" (10.0.0.5), port 5432 failed: Connection refused'
			)
		).toBe('database-unreachable');
		expect(backupFailureCause('cannot open the database /srv/kiosk/app.db: unable to open database file')).toBe(
			'database-unreachable'
		);
	});

	it('knows a copy that failed its check, and calls anything else unknown', () => {
		expect(backupFailureCause('the snapshot failed integrity_check: row 4 missing from index')).toBe('check-failed');
		expect(backupFailureCause('something nobody foresaw at /srv/kiosk')).toBe('unknown');
	});
});
