import { describe, expect, it, vi } from 'vitest';
import { FakeClock, HOUR, MINUTE } from '../time/clock.ts';
import { OpenStreams, type StreamEnd } from './open-streams.ts';

const limits = { perOwner: 2, total: 3, maxDurationMs: HOUR, recheckMs: 60_000 };

function recorder() {
	const ends: StreamEnd[] = [];
	return { ends, onEnd: (reason: StreamEnd) => ends.push(reason) };
}

describe('OpenStreams', () => {
	it('finding 3: a stream ends after its maximum duration (fake clock), and only then', async () => {
		const clock = new FakeClock();
		const streams = new OpenStreams(limits, clock);
		const { ends, onEnd } = recorder();
		const stream = streams.open('operator:1', async () => true, onEnd)!;
		clock.advance(HOUR - MINUTE);
		expect(await stream.check()).toBe(true);
		clock.advance(MINUTE);
		expect(await stream.check()).toBe(false);
		expect(ends).toEqual(['time_limit']);
		expect(streams.size).toBe(0);
	});

	it('ends a stream whose check says no (revoked) or fails (failed), once', async () => {
		const streams = new OpenStreams(limits, new FakeClock());
		const revoked = recorder();
		let allowed = true;
		const first = streams.open('operator:1', async () => allowed, revoked.onEnd)!;
		expect(await first.check()).toBe(true);
		allowed = false;
		expect(await first.check()).toBe(false);
		expect(await first.check()).toBe(false);
		expect(revoked.ends).toEqual(['revoked']);

		const failed = recorder();
		const second = streams.open('operator:2', () => Promise.reject(new Error('database locked')), failed.onEnd)!;
		expect(await second.check()).toBe(false);
		expect(failed.ends).toEqual(['failed']);
	});

	it('checks by itself every recheckMs until closed', async () => {
		const streams = new OpenStreams({ ...limits, recheckMs: 5 }, new FakeClock());
		let checks = 0;
		const stream = streams.open(
			'kiosk:1',
			async () => (checks++, true),
			() => undefined
		)!;
		await vi.waitFor(() => expect(checks).toBeGreaterThanOrEqual(3));
		stream.close();
		const after = checks;
		await new Promise((resolve) => setTimeout(resolve, 30));
		expect(checks).toBe(after);
	});

	it('finding 3: one owner holds at most perOwner streams; a new one pushes out its oldest', () => {
		const streams = new OpenStreams(limits, new FakeClock());
		const [a1, a2, a3, b1] = [recorder(), recorder(), recorder(), recorder()];
		streams.open('operator:1', async () => true, a1.onEnd);
		streams.open('operator:1', async () => true, a2.onEnd);
		streams.open('operator:2', async () => true, b1.onEnd);
		expect(streams.open('operator:1', async () => true, a3.onEnd)).not.toBeNull();
		expect([a1.ends, a2.ends, a3.ends, b1.ends]).toEqual([['too_many'], [], [], []]);
		expect(streams.size).toBe(3);
	});

	it('finding 3: the process holds at most `total` streams; a closed one makes room', () => {
		const streams = new OpenStreams(limits, new FakeClock());
		const opened = [1, 2, 3].map((n) =>
			streams.open(
				`kiosk:${n}`,
				async () => true,
				() => undefined
			)
		);
		expect(
			streams.open(
				'kiosk:4',
				async () => true,
				() => undefined
			)
		).toBeNull();
		opened[0]!.close();
		opened[0]!.close();
		expect(streams.size).toBe(2);
		expect(
			streams.open(
				'kiosk:4',
				async () => true,
				() => undefined
			)
		).not.toBeNull();
		for (const stream of opened) stream?.close();
	});

	describe('sharing a full process (shareWhenFull, the console’s live views)', () => {
		const shared = { perOwner: 4, total: 8, maxDurationMs: HOUR, recheckMs: 60_000, shareWhenFull: true };
		const fill = (streams: OpenStreams, owner: string, n: number, privileged = false) =>
			Array.from({ length: n }, () => {
				const r = recorder();
				expect(streams.open(owner, async () => true, r.onEnd, { privileged })).not.toBeNull();
				return r;
			});

		it('an owner always gets in: the oldest view of the unprivileged holder with the most goes', () => {
			const streams = new OpenStreams(shared, new FakeClock());
			const viewerA = fill(streams, 'operator:2', 4);
			const viewerB = fill(streams, 'operator:3', 4);
			const owner = fill(streams, 'operator:1', 3, true);
			expect(streams.size).toBe(8);
			expect(viewerA.map((r) => r.ends)).toEqual([['displaced'], ['displaced'], [], []]);
			expect(viewerB.map((r) => r.ends)).toEqual([['displaced'], [], [], []]);
			expect(owner.map((r) => r.ends)).toEqual([[], [], []]);
		});

		it('a newcomer takes a place from whoever holds at least two more; equal shares refuse it; owners’ views stay', () => {
			const streams = new OpenStreams(shared, new FakeClock());
			const owner = fill(streams, 'operator:1', 2, true);
			const viewer = fill(streams, 'operator:2', 4);
			const operator = fill(streams, 'operator:3', 2);
			const newcomer = recorder();
			expect(streams.open('operator:4', async () => true, newcomer.onEnd)).not.toBeNull();
			expect(viewer.map((r) => r.ends)).toEqual([['displaced'], [], [], []]);
			// Now 2 + 3 + 2 + 1: nobody holds two more than operator:4 (1) would hold… except the viewer (3 ≥ 1 + 2).
			expect(
				streams.open(
					'operator:4',
					async () => true,
					() => undefined
				)
			).not.toBeNull();
			expect(viewer.map((r) => r.ends)).toEqual([['displaced'], ['displaced'], [], []]);
			// 2 + 2 + 2 + 2: a third view of operator:4 would take from an equal share, so it is refused.
			expect(
				streams.open(
					'operator:4',
					async () => true,
					() => undefined
				)
			).toBeNull();
			// Someone with none yet still gets one: from the oldest view of the biggest unprivileged holders.
			expect(
				streams.open(
					'operator:5',
					async () => true,
					() => undefined
				)
			).not.toBeNull();
			expect(viewer.map((r) => r.ends)).toEqual([['displaced'], ['displaced'], ['displaced'], []]);
			expect([...owner, ...operator].map((r) => r.ends)).toEqual([[], [], [], []]);
			expect(streams.size).toBe(8);
		});

		it('without shareWhenFull (kiosk streams) a full process refuses, whoever asks', () => {
			const streams = new OpenStreams({ ...shared, shareWhenFull: false }, new FakeClock());
			const held = fill(streams, 'kiosk:1', 4).concat(fill(streams, 'kiosk:2', 4));
			expect(
				streams.open(
					'kiosk:3',
					async () => true,
					() => undefined,
					{ privileged: true }
				)
			).toBeNull();
			expect(held.every((r) => r.ends.length === 0)).toBe(true);
		});
	});
});
