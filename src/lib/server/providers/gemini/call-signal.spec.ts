import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { callSignal } from './call-signal.ts';

describe('callSignal', () => {
	it("aborts with the job's reason while the call runs", () => {
		const job = new AbortController();
		const { signal } = callSignal(job.signal);
		job.abort(new Error('worker stopping'));
		expect(signal?.aborted).toBe(true);
		expect((signal?.reason as Error).message).toBe('worker stopping');
	});

	it("leaves no listener on the job's signal once released, however many calls the job makes", () => {
		const job = new AbortController();
		for (let i = 0; i < 25; i++) {
			const { signal, release } = callSignal(job.signal);
			expect(getEventListeners(job.signal, 'abort')).toHaveLength(1);
			signal?.addEventListener('abort', () => {}); // what the SDK does, and keeps
			release();
		}
		expect(getEventListeners(job.signal, 'abort')).toHaveLength(0);
	});

	it('is aborted from the start when the job already is, and is absent when the job has no signal', () => {
		const job = new AbortController();
		job.abort('stopped');
		expect(callSignal(job.signal).signal?.aborted).toBe(true);
		expect(callSignal(undefined).signal).toBeUndefined();
	});

	it('does not follow the job after release', () => {
		const job = new AbortController();
		const { signal, release } = callSignal(job.signal);
		release();
		job.abort('later');
		expect(signal?.aborted).toBe(false);
	});
});
