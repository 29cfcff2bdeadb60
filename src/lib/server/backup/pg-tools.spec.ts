import { describe, expect, it } from 'vitest';
import { connectionFor } from './pg-tools.ts';

describe('connectionFor (DATABASE_URL as pg_dump/pg_restore options)', () => {
	it('puts host, port, user and database on the command line and the password only in PGPASSWORD', () => {
		const { args, env } = connectionFor(
			'postgresql://kiosk:s%40cret%20pw@db.example.com:6543/kiosk_prod?sslmode=require'
		);
		expect(args).toEqual([
			'--dbname',
			'kiosk_prod',
			'--host',
			'db.example.com',
			'--port',
			'6543',
			'--username',
			'kiosk'
		]);
		expect(args.join(' ')).not.toContain('s@cret');
		expect(env).toMatchObject({ PGPASSWORD: 's@cret pw', PGSSLMODE: 'require' });
	});

	it('takes a socket folder from ?host= (it wins over the host part, as in libpq), and sets no password when there is none', () => {
		const { args, env } = connectionFor('postgresql://kiosk@localhost/kiosk?host=/var/run/postgresql');
		expect(args).toEqual(['--dbname', 'kiosk', '--host', '/var/run/postgresql', '--username', 'kiosk']);
		expect(env.PGPASSWORD).toBeUndefined();
	});
});
