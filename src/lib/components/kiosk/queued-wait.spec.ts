import { describe, expect, it } from 'vitest';
import { QUEUED_SCREEN_MS, QUEUED_WAIT_FOR_PACK_MS, queuedScreenMs } from './queued-wait.ts';

const due = (etaSeconds: number) => queuedScreenMs({ queue: { position: 0, etaSeconds, status: 'processing' } });

describe('how long "being drawn" stays up', () => {
	it('waits for a pack due within a minute (1.5 × the estimate + 5 s), never less than the usual 15 s', () => {
		expect([due(5), due(6), due(20), due(30), due(36)]).toEqual([15_000, 15_000, 35_000, 50_000, 59_000]);
	});

	it('leaves after the usual 15 s when the pack is further off, or when there is no estimate', () => {
		expect([due(37), due(90), due(600)]).toEqual([QUEUED_SCREEN_MS, QUEUED_SCREEN_MS, QUEUED_SCREEN_MS]);
		expect(queuedScreenMs({ queue: null })).toBe(QUEUED_SCREEN_MS);
		expect(due(36)).toBeLessThanOrEqual(QUEUED_WAIT_FOR_PACK_MS);
	});
});
