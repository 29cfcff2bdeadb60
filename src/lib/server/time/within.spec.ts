import { describe, expect, it } from 'vitest';
import { within } from './within.ts';

describe('within', () => {
	it('gives the value of a promise that settles in time, and leaves no timer behind', async () => {
		const timersBefore = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
		expect(await within(Promise.resolve(42), 60_000)).toBe(42);
		expect(process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length).toBe(timersBefore);
	});

	it("says 'late' when the time runs out first, and passes a rejection on", async () => {
		expect(await within(new Promise(() => undefined), 5)).toBe('late');
		await expect(within(Promise.reject(new Error('no')), 60_000)).rejects.toThrow('no');
	});
});
