import { describe, expect, it } from 'vitest';
import { capContext, CONTEXT_MAX_BYTES, parseLogLine } from './log-line.ts';

const at = () => '2026-01-01T00:00:00.000Z';

describe('parseLogLine', () => {
	it('skips lines below warn and lines that are not JSON', () => {
		expect(parseLogLine('{"level":30,"msg":"fine"}', 'web', at)).toBeNull();
		expect(parseLogLine('worker refuses to start', 'web', at)).toBeNull();
	});

	it('keeps level, time and message in their columns and the rest as context', () => {
		const line = JSON.stringify({
			level: 60,
			time: '2026-02-02T02:02:02.000Z',
			process: 'worker',
			pid: 9,
			hostname: 'h',
			msg: 'boom',
			job: 3
		});
		expect(parseLogLine(line, 'worker', at)).toEqual({
			at: '2026-02-02T02:02:02.000Z',
			process: 'worker',
			level: 'fatal',
			message: 'boom',
			context: '{"job":3}'
		});
	});

	it('falls back to the error message when the line has none', () => {
		const line = JSON.stringify({ level: 50, err: { type: 'Error', message: 'disk full' } });
		expect(parseLogLine(line, 'web', at)).toMatchObject({
			message: 'disk full',
			at: '2026-01-01T00:00:00.000Z',
			level: 'error'
		});
	});
});

describe('scrubLinkSecrets', () => {
	it('cuts the secret out of a one-time link in the message and the context, keeping the rest', () => {
		const link = 'http://kiosk.example/console/setup?token=t5ll2cz73hketi5bouio6yyr4iqnnkz6';
		const line = JSON.stringify({ level: 40, msg: `console setup: open ${link} to create the owner`, setupLink: link });
		const draft = parseLogLine(line, 'web', at)!;
		expect(draft.message).toBe(
			'console setup: open http://kiosk.example/console/setup?token=[redacted] to create the owner'
		);
		expect(draft.context).toBe('{"setupLink":"http://kiosk.example/console/setup?token=[redacted]"}');
		expect(JSON.stringify(draft)).not.toContain('t5ll2cz73');
	});
});

describe('capContext', () => {
	it('leaves a small context as it is and shrinks a large one to valid JSON under the cap', () => {
		expect(capContext('{"a":1}')).toBe('{"a":1}');
		const big = JSON.stringify({ text: 'ж'.repeat(5000) });
		const capped = capContext(big);
		expect(Buffer.byteLength(capped)).toBeLessThanOrEqual(CONTEXT_MAX_BYTES);
		expect(JSON.parse(capped)).toMatchObject({ truncated: true, bytes: Buffer.byteLength(big) });
	});
});
