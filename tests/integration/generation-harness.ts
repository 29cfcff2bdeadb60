import path from 'node:path';
import { existsSync } from 'node:fs';
import { afterEach, expect } from 'vitest';
import type { ImageProvider } from '../../src/lib/server/providers/provider.ts';
import type { QueueDeps } from '../../src/lib/server/jobs/run/queue-deps.ts';
import { JobLoop } from '../../src/worker/queue/job-loop.ts';
import { createJobLoop } from '../../src/worker/queue/start-queue.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { type NodeProcess, startBuiltWorker } from '../helpers/node-process.ts';
import type { FileStore } from '../../src/lib/server/files/file-store.ts';
import { jobLoopInput } from '../helpers/job-loop-input.ts';
import { createGenerationWorld, type GenerationWorld } from './generation-world.ts';

// The world itself (no vitest) is generation-world.ts; this adds the per-test hooks and the crash helpers.
export * from './generation-world.ts';

/**
 * One generation world per test and the job loop running on it, both closed after each test:
 * `open()` makes the world, `startLoop()` runs the real job loop (real time) against it.
 */
export function useGenerationWorld(prefix: string) {
	const tempDir = useTempDir(prefix);
	let world: GenerationWorld | undefined;
	let loop: JobLoop | undefined;
	afterEach(async () => {
		await loop?.stop(1000);
		loop = undefined;
		await world?.close();
		world = undefined;
	});
	return {
		open: async (): Promise<GenerationWorld> => (world = await createGenerationWorld(tempDir())),
		/** `fileStore`: the store the loop is given, as the worker's main.ts gives it one (the world's folder unless said). */
		startLoop: async (extra: Record<string, string> = {}, fileStore?: FileStore): Promise<JobLoop> => {
			if (!world) throw new Error('open() the world first');
			loop = await createJobLoop(jobLoopInput(world, world.config(extra), { fileStore }));
			loop.start();
			return loop;
		},
		stopLoop: async (): Promise<void> => {
			await loop?.stop(1000);
			loop = undefined;
		}
	};
}

export type WorkerProcess = NodeProcess;

/**
 * A generation world per test for tests that start real worker processes on it (crash tests):
 * `open()` makes the world; each process pushed onto `children` is stopped after the test (SIGTERM,
 * waited for), then the world is closed.
 */
export function useWorkerProcessWorld(prefix: string) {
	const tempDir = useTempDir(prefix);
	const children: WorkerProcess[] = [];
	let world: GenerationWorld | undefined;
	afterEach(async () => {
		for (const child of children.splice(0)) {
			if (child.exitCode === null && child.signalCode === null) {
				child.kill('SIGTERM');
				await child.finished;
			}
		}
		await world?.close();
		world = undefined;
	});
	return { children, open: async (): Promise<GenerationWorld> => (world = await createGenerationWorld(tempDir())) };
}

/**
 * The real worker started with CRASH_AT=<step> (test builds only): it SIGKILLs itself the first
 * time it reaches the step (CRASH_MARKER keeps the next run from dying there again) and is started
 * once more. Both processes go into `children` for the caller's clean-up; returns the second.
 * The second takes over the first's stale instance lock and so requeues its jobs at start.
 */
export async function crashAndRestartWorker(
	world: GenerationWorld,
	step: string,
	children: WorkerProcess[],
	extraEnv: Record<string, string> = {}
): Promise<WorkerProcess> {
	const marker = path.join(world.dir, 'crashed');
	const env = {
		...world.env,
		LOG_LEVEL: 'warn',
		CRASH_AT: step,
		CRASH_MARKER: marker,
		// A normal lease: the restarted worker takes the killed launch's jobs at once (it took over the
		// launch's stale lock), so nothing waits for this lease — and, however loaded the machine, the
		// restarted worker's own lease does not run out mid-job and requeue the job again.
		JOB_LEASE_SECONDS: '30',
		// A send-budget place the killed worker never settled frees its chat after 5 s, not 35 s.
		SEND_ANSWER_TIMEOUT_MS: '5000',
		...extraEnv
	};
	const first = startBuiltWorker({ env });
	children.push(first);
	const died = await first.finished;
	expect(died.signal, died.stdout.slice(-2000) + died.stderr.slice(-2000)).toBe('SIGKILL');
	expect(existsSync(marker)).toBe(true);
	const second = startBuiltWorker({ env });
	children.push(second);
	return second;
}

/**
 * A provider whose first call (describeAppearance, a job's first stage) waits until the test
 * releases it: the job is claimed and mid-run for as long as the test needs. `entered` resolves
 * when the call has started.
 */
function heldAtFirstCall(provider: ImageProvider): {
	provider: ImageProvider;
	entered: Promise<void>;
	release: () => void;
} {
	let enter!: () => void;
	const entered = new Promise<void>((resolve) => (enter = resolve));
	let release!: () => void;
	const released = new Promise<void>((resolve) => (release = resolve));
	return {
		provider: {
			...provider,
			describeAppearance: async (brief) => (enter(), await released, provider.describeAppearance(brief))
		},
		entered,
		release
	};
}

/**
 * Runs the real job loop until its job is mid-run (held at its first provider call), then stops
 * the worker with no grace: the job is aborted before its call returns.
 */
export async function stopLoopMidJob(deps: QueueDeps): Promise<void> {
	const held = heldAtFirstCall(deps.provider);
	const loop = new JobLoop({ ...deps, provider: held.provider });
	loop.start();
	await held.entered;
	const stopped = loop.stop(0);
	// Queued after stop's own zero grace timer, so the abort comes first.
	setTimeout(held.release, 0);
	await stopped;
}
