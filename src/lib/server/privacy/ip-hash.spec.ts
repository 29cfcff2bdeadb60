import { describe, expect, it } from 'vitest';
import { clientGroup, hashClientIp } from './ip-hash.ts';

const SALT = 'test-salt-0123456789';

describe('client groups', () => {
	it('keeps an IPv4 address as it is, also when written IPv4-mapped', () => {
		expect(clientGroup('203.0.113.9')).toBe('203.0.113.9');
		expect(clientGroup(' ::FFFF:203.0.113.9 ')).toBe('203.0.113.9');
		expect(clientGroup('::ffff:cb00:7109')).toBe('203.0.113.9');
	});

	it('groups IPv6 by its /64, however the address is written', () => {
		expect(clientGroup('2001:db8:5:7::1')).toBe('2001:db8:5:7::/64');
		expect(clientGroup('2001:0DB8:0005:0007:ffff:1:2:3')).toBe('2001:db8:5:7::/64');
		expect(clientGroup('[2001:db8:5:7::abcd]')).toBe('2001:db8:5:7::/64');
		expect(clientGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
		expect(clientGroup('2001:db8::')).toBe('2001:db8:0:0::/64');
		expect(clientGroup('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
		expect(clientGroup('::1')).toBe('0:0:0:0::/64');
	});

	it('keeps what is not an address as written', () => {
		expect(clientGroup('unknown')).toBe('unknown');
	});
});

describe('hashClientIp', () => {
	it('gives 32 hex characters that depend on the salt and never contain the address', () => {
		const hash = hashClientIp('203.0.113.9', SALT);
		expect(hash).toMatch(/^[0-9a-f]{32}$/);
		expect(hashClientIp('203.0.113.9', 'another-salt-0123456789')).not.toBe(hash);
		expect(hash).not.toContain('203');
	});

	it('is one client for the mapped and plain forms and for every address of one /64, another for the next /64', () => {
		expect(hashClientIp('::ffff:203.0.113.9', SALT)).toBe(hashClientIp('203.0.113.9', SALT));
		expect(hashClientIp('2001:db8:5:7::1', SALT)).toBe(hashClientIp('2001:db8:5:7:a:b:c:d', SALT));
		expect(hashClientIp('2001:db8:5:8::1', SALT)).not.toBe(hashClientIp('2001:db8:5:7::1', SALT));
		expect(hashClientIp('203.0.113.10', SALT)).not.toBe(hashClientIp('203.0.113.9', SALT));
	});
});
