import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleNodeArgs } from '../../src/lib/server/config/node-bundles.ts';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX_LOADER = pathToFileURL(path.join(PROJECT_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

export interface Finished {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

type StartOptions = { env?: NodeJS.ProcessEnv; cwd?: string; args?: string[] };
export type NodeProcess = ChildProcess & { output: () => Finished; finished: Promise<Finished> };

/** Starts a TypeScript entry point of ours in a real Node process (as npm scripts do). */
export function startTs(entry: string, options: StartOptions = {}): NodeProcess {
	// tsx by absolute URL, so the child finds it whatever its working directory is.
	return startNode(['--import', TSX_LOADER, path.resolve(PROJECT_ROOT, entry)], options);
}

/** Runs an entry point to completion. */
export function runTs(entry: string, options: StartOptions = {}): Promise<Finished> {
	return startTs(entry, options).finished;
}

/**
 * The worker as production runs it: the bundle scripts/build-bundles.ts makes, which the tests'
 * global setup builds from the sources before any test runs (tests/helpers/node-bundles-setup.ts).
 */
export function startBuiltWorker(options: StartOptions = {}): NodeProcess {
	return startNode(bundleNodeArgs(PROJECT_ROOT, 'worker'), options);
}

/** Runs the worker to completion (a start it refuses, say). */
export function runBuiltWorker(options: StartOptions = {}): Promise<Finished> {
	return startBuiltWorker(options).finished;
}

function startNode(nodeArgs: string[], options: StartOptions): NodeProcess {
	const child = spawn(process.execPath, [...nodeArgs, ...(options.args ?? [])], {
		cwd: options.cwd ?? PROJECT_ROOT,
		env: { ...process.env, LOG_LEVEL: 'info', ...options.env },
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk) => (stdout += chunk));
	child.stderr.on('data', (chunk) => (stderr += chunk));
	const output = () => ({ code: child.exitCode, signal: child.signalCode, stdout, stderr });
	const finished = new Promise<Finished>((resolve) => child.on('exit', () => resolve(output())));
	return Object.assign(child, { output, finished });
}

/**
 * How long a wait for something a real process does may take before the test calls it hung. A
 * limit for a hang, not a speed promise: test files run side by side, often on a busy machine, and
 * every wait ends as soon as what it waits for happens.
 */
export const PROCESS_WAIT_MS = 60_000;

/** Resolves once `predicate` holds for the process's stdout+stderr so far. */
export async function waitForOutput(
	child: NodeProcess,
	predicate: (text: string) => boolean,
	timeoutMs = PROCESS_WAIT_MS
): Promise<string> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const { stdout, stderr, code } = child.output();
		if (predicate(stdout + stderr)) return stdout + stderr;
		if (code !== null) throw new Error(`process exited (${code}) before the expected output:\n${stdout}${stderr}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	throw new Error(`timed out waiting for output:\n${child.output().stdout}${child.output().stderr}`);
}

/** Whether a process with this pid still exists (signal 0 tests for it without sending anything). */
export function isProcessAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}
