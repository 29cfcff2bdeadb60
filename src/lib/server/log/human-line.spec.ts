import { describe, expect, it } from 'vitest';
import { humanLogLine } from './human-line.ts';

describe('a log line as npm start shows it', () => {
	it('turns a pino line into time, level, message and the fields people read', () => {
		const line = JSON.stringify({
			level: 30,
			time: '2026-12-03T08:54:56.349Z',
			process: 'worker',
			workerId: 'vm:1',
			pid: 22768,
			telegram: 'emulator',
			msg: 'worker started'
		});
		expect(humanLogLine(line)).toBe('08:54:56 INFO  worker started  telegram=emulator');
	});

	it('keeps long values and many fields short, and says how many it left out', () => {
		const line = JSON.stringify({
			level: 40,
			time: 1796288095932,
			msg: 'slow',
			a: 'x'.repeat(100),
			b: { nested: [1, 2] },
			c: 1,
			d: 2,
			e: 3,
			f: 4,
			g: 5
		});
		const shown = humanLogLine(line);
		expect(shown).toMatch(
			/^\d\d:\d\d:\d\d WARN {2}slow {2}a=x{59}… b=\{"nested":\[1,2\]\} c=1 d=2 e=3 f=4 \(\+1 more\)$/
		);
	});

	it('leaves what is not a pino line as it is', () => {
		for (const line of [
			'Telegram emulator: http://127.0.0.1:8081/ (chat page)',
			'{not json',
			'{"a":1}',
			'    at run (file.ts:1:1)'
		])
			expect(humanLogLine(line)).toBe(line);
	});
});
