import { systemClock, type Clock } from '../time/clock.ts';
import type { LogEntryWriter, StoredLogEntry } from './log-entry-writer.ts';
import { pseudonymiserFor, type Pseudonymise } from './guest-data-scrub.ts';
import { parseLogLine, type LogEntryDraft, type LogProcess } from './log-line.ts';
import { DEFAULT_ERROR_TEXT_LENGTH, errorText } from '../errors/error-text.ts';

/** Consecutive failed flushes before the sink says so on stderr (about 5 s at the default pace). */
const REPORT_AFTER_FAILURES = 10;

export interface LogSinkOptions {
	flushEveryMs?: number;
	/** A batch this big is written at once instead of waiting for the timer. */
	batchSize?: number;
	/** Lines kept while the database is busy or not attached yet; older ones are dropped beyond it. */
	maxPending?: number;
	/** Told once per failure streak that lasted REPORT_AFTER_FAILURES tries; stderr by default. */
	onTrouble?: (message: string) => void;
	clock?: Clock;
	/** DATA_DIR's pseudonym key: Telegram ids in stored lines become the audit log's pseudonyms. */
	pseudonymKey?: Buffer;
}

/**
 * The extra pino destination that copies warnings and errors into `log_entries` for the console.
 * `write` only parses and queues, so logging never waits for the database; a timer writes the
 * queue in batches. When the database is busy the batch stays queued for the next tick; past
 * `maxPending` the oldest lines are dropped and counted, and the next successful batch records
 * how many were lost. Nothing here throws into the code that logged.
 */
export class LogSink {
	readonly #process: LogProcess;
	readonly #flushEveryMs: number;
	readonly #batchSize: number;
	readonly #maxPending: number;
	readonly #onTrouble: (message: string) => void;
	readonly #clock: Clock;
	readonly #pseudonymise: Pseudonymise;
	#writer: LogEntryWriter | undefined;
	#workerId: string | null = null;
	#pending: LogEntryDraft[] = [];
	#timer: NodeJS.Timeout | undefined;
	#flushQueued = false;
	/** The batch a writer that returns promises is storing now; the next flush waits for it. */
	#inFlight: Promise<void> | undefined;
	#failuresInARow = 0;
	#dropped = 0;
	#droppedUnrecorded = 0;

	constructor(processName: LogProcess, options: LogSinkOptions = {}) {
		this.#process = processName;
		this.#flushEveryMs = options.flushEveryMs ?? 500;
		this.#batchSize = options.batchSize ?? 50;
		this.#maxPending = options.maxPending ?? 1000;
		this.#onTrouble = options.onTrouble ?? ((message) => process.stderr.write(`${message}\n`));
		this.#clock = options.clock ?? systemClock;
		this.#pseudonymise = pseudonymiserFor(options.pseudonymKey);
	}

	/** Lines lost so far (the queue overflowed while the database was busy). */
	get droppedLines(): number {
		return this.#dropped;
	}

	get pendingLines(): number {
		return this.#pending.length;
	}

	/** Called by pino with one serialised line. */
	write(line: string): void {
		const draft = parseLogLine(line, this.#process, () => this.#clock.now().toISOString(), this.#pseudonymise);
		if (!draft) return;
		this.#pending.push(draft);
		const overflow = this.#pending.length - this.#maxPending;
		if (overflow > 0) this.#drop(this.#pending.splice(0, overflow).length);
		if (this.#writer && this.#pending.length >= this.#batchSize) this.#queueFlush();
	}

	/** Starts writing (the table exists once migrations ran); lines logged before wait in the queue. */
	attach(writer: LogEntryWriter, launch: { workerId?: string } = {}): void {
		this.#writer = writer;
		this.#workerId = launch.workerId ?? null;
		this.#timer = setInterval(() => this.flush(), this.#flushEveryMs);
		this.#timer.unref();
	}

	/** Writes the queue now; on failure keeps it for the next try. Never throws. */
	flush(): void {
		this.#flushQueued = false;
		if (this.#inFlight || !this.#writer || (this.#pending.length === 0 && this.#droppedUnrecorded === 0)) return;
		const batch = this.#pending.slice(0, this.#batchSize * 4);
		const entries: StoredLogEntry[] = batch.map((draft) => ({ ...draft, workerId: this.#workerId }));
		if (this.#droppedUnrecorded > 0) entries.push(this.#dropNote());
		let storing: void | Promise<void>;
		try {
			storing = this.#writer.insert(entries);
		} catch (error) {
			this.#failed(error);
			return;
		}
		if (!storing) return this.#stored(batch.length);
		this.#inFlight = storing.then(
			() => {
				this.#inFlight = undefined;
				this.#stored(batch.length);
			},
			(error: unknown) => {
				this.#inFlight = undefined;
				this.#failed(error);
			}
		);
	}

	/** Resolves once the batch being stored (if any) is stored or has failed. */
	settled(): Promise<void> {
		return this.#inFlight ?? Promise.resolve();
	}

	#stored(count: number): void {
		this.#failuresInARow = 0;
		this.#pending.splice(0, count);
		this.#droppedUnrecorded = 0;
		if (this.#pending.length > 0) this.#queueFlush();
	}

	#failed(error: unknown): void {
		// A single miss is normal (our own transaction held the lock for a moment); a streak is worth a line.
		if (++this.#failuresInARow === REPORT_AFTER_FAILURES) {
			this.#onTrouble(
				`log table: could not store log lines for ${REPORT_AFTER_FAILURES} tries (${errorText(error, DEFAULT_ERROR_TEXT_LENGTH, { preferCode: true })}); keeping up to ${this.#maxPending}, dropping older ones`
			);
		}
	}

	/** Last flush and release of the connection, on shutdown. */
	close(): void {
		if (this.#timer) clearInterval(this.#timer);
		this.flush();
		this.#writer?.close();
		this.#writer = undefined;
	}

	#queueFlush(): void {
		if (this.#flushQueued) return;
		this.#flushQueued = true;
		setImmediate(() => this.flush());
	}

	#drop(count: number): void {
		this.#dropped += count;
		this.#droppedUnrecorded += count;
	}

	/** A row saying lines are missing, so a gap in the console's list is explained. */
	#dropNote(): StoredLogEntry {
		const count = this.#droppedUnrecorded;
		return {
			at: this.#clock.now().toISOString(),
			process: this.#process,
			level: 'warn',
			message: `${count} log lines were dropped while the database was busy`,
			context: JSON.stringify({ dropped: count, droppedSinceStart: this.#dropped }),
			workerId: this.#workerId
		};
	}
}
