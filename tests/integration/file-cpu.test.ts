import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cpuSeconds } from '../helpers/file-cpu.ts';

describe("a test file's CPU seconds (npm test's heaviest files)", () => {
	it("reads utime, stime, cutime and cstime, even after a command name with ') ' in it", () => {
		const stat = '4242 (node (a) b) S 1 2 3 0 -1 4194304 10 0 0 0 250 50 1200 34 20 0 1 0 99 0 0';
		expect(cpuSeconds(stat)).toEqual({ self: 3, children: 12.34 });
	});

	it("reads this process's own line: it has used some CPU, and not more than it has lived", () => {
		const { self, children } = cpuSeconds(readFileSync('/proc/self/stat', 'utf8'));
		expect(self).toBeGreaterThan(0);
		expect(self).toBeLessThan(process.uptime() * 2 + 1);
		expect(children).toBeGreaterThanOrEqual(0);
	});
});
