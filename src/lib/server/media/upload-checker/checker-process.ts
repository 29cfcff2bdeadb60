import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { BUNDLE_NODE_FLAGS, bundlePath } from '../../config/node-bundles.ts';
import { checkerMessageSchema } from './checker-messages.ts';
import { UploadCheckFailed, type UploadCheck } from './upload-check.ts';

/**
 * One running upload checker process (checker-child.ts, run from its bundle
 * build/node/upload-checker.js), seen from the web process: started with an IPC channel, its
 * `ready`, its answers by request id, and its end. Whoever holds it decides when it starts and
 * stops (child-checker.ts).
 */
export interface CheckerEntry {
	/** The child's entry file: its bundle. */
	script: string;
	/** Node's flags for it (source maps on, as for every bundle). */
	execArgv: string[];
}

/** The web bundle (build/) starts the child from the bundle built beside it. */
export class UploadCheckerMissing extends Error {
	constructor(detail: string) {
		super(`the upload checker cannot be started: ${detail}`);
		this.name = 'UploadCheckerMissing';
	}
}

export function resolveCheckerEntry(projectRoot: string): CheckerEntry {
	const script = bundlePath(projectRoot, 'uploadChecker');
	if (!existsSync(script))
		throw new UploadCheckerMissing(`${script} is missing (\`npm run build\` makes it; deploy the whole build/ folder)`);
	return { script, execArgv: BUNDLE_NODE_FLAGS };
}

export interface CheckerExit {
	code: number | null;
	signal: NodeJS.Signals | null;
}

export class CheckerProcess {
	readonly ready: Promise<void>;
	readonly exited: Promise<CheckerExit>;
	#child: ChildProcess;
	#answers = new Map<number, { resolve(check: UploadCheck): void; reject(error: Error): void }>();
	#ended: CheckerExit | null = null;
	/** Retired or killed: its exit may still be on the way, but it takes no more photos. */
	#leaving = false;

	constructor(entry: CheckerEntry, env: NodeJS.ProcessEnv = process.env) {
		this.#child = fork(entry.script, [], {
			execArgv: entry.execArgv,
			serialization: 'advanced',
			env,
			// Its stderr goes where the web process's goes (a crash's stack lands in the same log).
			stdio: ['ignore', 'ignore', 'inherit', 'ipc']
		});
		this.exited = new Promise((resolve) =>
			this.#child.once('exit', (code, signal) => resolve(this.#end({ code, signal })))
		);
		this.ready = new Promise<void>((resolve, reject) => {
			this.#child.on('message', (raw) => {
				const message = checkerMessageSchema.safeParse(raw);
				if (!message.success) return;
				if (message.data.kind === 'ready') resolve();
				else this.#settle(message.data);
			});
			void this.exited.then((exit) =>
				reject(
					new UploadCheckFailed('start_failed', `the upload checker ended before it was ready (${describeExit(exit)})`)
				)
			);
		});
		this.ready.catch(() => undefined);
		this.#child.on('error', () => this.#child.kill('SIGKILL'));
	}

	get pid(): number | undefined {
		return this.#child.pid;
	}

	get running(): boolean {
		return this.#ended === null && !this.#leaving;
	}

	ask(id: number, photo: Buffer): Promise<UploadCheck> {
		if (!this.running) return Promise.reject(new UploadCheckFailed('crashed', 'the upload checker had ended'));
		return new Promise((resolve, reject) => {
			this.#answers.set(id, { resolve, reject });
			this.#child.send(
				{ id, photo },
				(error) =>
					error &&
					this.#answers.get(id)?.reject(new UploadCheckFailed('crashed', `could not send the photo: ${error.message}`))
			);
		});
	}

	/** Keeps the web process's event loop alive while a request is out; an idle checker holds nothing open. */
	hold(busy: boolean): void {
		if (busy) this.#child.ref();
		else this.#child.unref();
		// The IPC channel is a handle of its own (typed as a Pipe on `channel`).
		const channel = this.#child.channel as { ref?(): void; unref?(): void } | undefined;
		if (busy) channel?.ref?.();
		else channel?.unref?.();
	}

	/** Closes the channel: the child sees it and exits by itself. */
	retire(): void {
		this.#leaving = true;
		if (this.#child.connected) this.#child.disconnect();
	}

	kill(): void {
		this.#leaving = true;
		if (this.#ended === null) this.#child.kill('SIGKILL');
	}

	#settle(
		message: { kind: 'answer'; id: number; check: UploadCheck } | { kind: 'error'; id: number; message: string }
	): void {
		const waiting = this.#answers.get(message.id);
		if (!waiting) return;
		this.#answers.delete(message.id);
		if (message.kind === 'answer') waiting.resolve(message.check);
		else waiting.reject(new UploadCheckFailed('failed', `the upload check failed: ${message.message}`));
	}

	#end(exit: CheckerExit): CheckerExit {
		this.#ended = exit;
		for (const waiting of this.#answers.values())
			waiting.reject(
				new UploadCheckFailed('crashed', `the upload checker ended during the check (${describeExit(exit)})`)
			);
		this.#answers.clear();
		return exit;
	}
}

export function describeExit(exit: CheckerExit): string {
	return exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
}
