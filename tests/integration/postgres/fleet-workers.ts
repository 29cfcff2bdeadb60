import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { exitOrKill } from '../../helpers/built-web.ts';
import { type NodeProcess, startBuiltWorker, waitForOutput } from '../../helpers/node-process.ts';

type WorkerProcess = NodeProcess;

/** One start of a worker process: its registry id, and when the test SIGKILLed it (null while alive or stopped cleanly). */
export interface Launch {
	slot: number;
	workerId: string;
	process: WorkerProcess;
	killedAt: number | null;
}

/** A pino line of a launch's output, with the time parsed. */
export interface LogLine {
	launch: Launch;
	at: number;
	msg: string;
	fields: Record<string, unknown>;
}

/**
 * The real worker process (src/worker/main.ts) in N slots, each slot with a DATA_DIR of its own
 * (the instance lock allows one worker per folder; on PostgreSQL they share nothing else on disk).
 * A slot is killed with SIGKILL and started again in the same folder, as systemd's restart does:
 * the new launch takes over the dead one's stale lock.
 */
export class WorkerFleet {
	readonly launches: Launch[] = [];
	readonly #current = new Map<number, Launch>();

	constructor(
		private readonly baseDir: string,
		private readonly env: Record<string, string>
	) {}

	/** `env`: this launch's own additions to the fleet's environment (a stalled worker's STALL_AFTER_PLACE_MS). */
	async start(slot: number, env: Record<string, string> = {}): Promise<Launch> {
		const dataDir = path.join(this.baseDir, `worker-${slot}`);
		mkdirSync(dataDir, { recursive: true });
		const child = startBuiltWorker({ env: { ...this.env, ...env, DATA_DIR: dataDir } });
		const output = await waitForOutput(child, (text) => text.includes('"worker started"'), 90_000);
		const started = parseLines(output).find((line) => line.msg === 'worker started');
		const launch: Launch = { slot, workerId: String(started?.workerId), process: child, killedAt: null };
		this.launches.push(launch);
		this.#current.set(slot, launch);
		return launch;
	}

	current(slot: number): Launch {
		const launch = this.#current.get(slot);
		if (!launch) throw new Error(`worker slot ${slot} was never started`);
		return launch;
	}

	/** SIGKILL, then the same slot started again; resolves once the new launch says it started. */
	async killAndRestart(slot: number): Promise<Launch> {
		const launch = this.current(slot);
		launch.killedAt = Date.now();
		launch.process.kill('SIGKILL');
		await launch.process.finished;
		return this.start(slot);
	}

	/** SIGTERM to every live launch (a clean stop: jobs released, leases given up). */
	async stopAll(): Promise<void> {
		await Promise.all([...this.#current.values()].map((launch) => exitOrKill(launch.process, 30_000)));
	}

	/** Every JSON log line every launch printed, killed ones included (up to their death). */
	logLines(): LogLine[] {
		return this.launches.flatMap((launch) =>
			parseLines(launch.process.output().stdout).map((fields) => ({
				launch,
				at: Date.parse(String(fields.time)),
				msg: String(fields.msg),
				fields
			}))
		);
	}
}

function parseLines(text: string): Record<string, unknown>[] {
	return text
		.split('\n')
		.filter((line) => line.startsWith('{'))
		.flatMap((line) => {
			try {
				return [JSON.parse(line) as Record<string, unknown>];
			} catch {
				return []; // a line cut by SIGKILL
			}
		});
}
