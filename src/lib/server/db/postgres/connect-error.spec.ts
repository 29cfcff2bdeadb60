import { describe, expect, it } from 'vitest';
import { connectErrorFor, describeTarget } from './connect-error.ts';

const URL_WITH_SECRET = 'postgresql://kiosk%40venue:s3cr%3Ft@db.example.com:6543/stickers';

describe('a failed PostgreSQL connection as one line', () => {
	it('names host:port, user and database from the URL, never its password', () => {
		expect(describeTarget(URL_WITH_SECRET)).toEqual({
			hostPort: 'db.example.com:6543',
			user: 'kiosk@venue',
			database: 'stickers'
		});
		expect(describeTarget('postgres://db/x')).toEqual({ hostPort: 'db:5432', user: '(none)', database: 'x' });
	});

	it.each([
		[
			'refused connection',
			Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
			'cannot reach PostgreSQL at db.example.com:6543 (ECONNREFUSED)'
		],
		[
			'unreachable host (an AggregateError of attempts)',
			Object.assign(new AggregateError([Object.assign(new Error('x'), { code: 'EHOSTUNREACH' })]), {}),
			'cannot reach PostgreSQL at db.example.com:6543 (EHOSTUNREACH)'
		],
		[
			'no answer in time',
			new Error('Connection terminated due to connection timeout'),
			'cannot reach PostgreSQL at db.example.com:6543 (no answer in time)'
		],
		[
			'wrong password',
			Object.assign(new Error('password authentication failed for user "kiosk@venue"'), { code: '28P01' }),
			'PostgreSQL at db.example.com:6543 refused user "kiosk@venue"'
		],
		[
			'missing database',
			Object.assign(new Error('database "stickers" does not exist'), { code: '3D000' }),
			'PostgreSQL at db.example.com:6543 has no database "stickers"'
		],
		[
			'anything else',
			Object.assign(new Error('too many connections for role'), { code: '53300' }),
			'PostgreSQL at db.example.com:6543 as user "kiosk@venue": too many connections for role'
		]
	])('%s', (_label, error, start) => {
		const line = connectErrorFor(URL_WITH_SECRET, error).message;
		expect(line.startsWith(start)).toBe(true);
		expect(line).not.toContain('s3cr');
		expect(line).not.toContain('\n');
	});
});
