// Every Bot API call the emulator received, faulted ones included, so a test can assert
// "the retry came ≥ 2 s later" or "exactly one sendMessage reached chat 42".

export interface CallRecord {
	method: string;
	chat_id?: number;
	/** Arrival time, ms since the epoch (the emulator's clock). */
	at: number;
	/** HTTP-level outcome: the status sent, or 'dropped' when a fault cut the connection. */
	outcome: number | 'dropped' | 'pending';
	/** How long an injected `delay` fault held the call before it went on (0: none matched). */
	delayed_ms: number;
}

export interface CountersSnapshot {
	/** method → calls */
	methods: Record<string, number>;
	/** `${method}:${chat_id}` → calls */
	byChat: Record<string, number>;
	calls: CallRecord[];
}

/** The newest calls the log keeps by default; a load test that reads every arrival asks for more. */
export const CALL_LOG_LIMIT = 5_000;

export class CallCounters {
	private methods: Record<string, number> = {};
	private byChat: Record<string, number> = {};
	private calls: CallRecord[] = [];

	constructor(private readonly logLimit = CALL_LOG_LIMIT) {}

	record(method: string, chatId: number | undefined, at: number): CallRecord {
		this.methods[method] = (this.methods[method] ?? 0) + 1;
		if (chatId !== undefined) {
			const key = `${method}:${chatId}`;
			this.byChat[key] = (this.byChat[key] ?? 0) + 1;
		}
		const call: CallRecord = { method, chat_id: chatId, at, outcome: 'pending', delayed_ms: 0 };
		this.calls.push(call);
		if (this.calls.length > this.logLimit) this.calls.splice(0, this.calls.length - this.logLimit);
		return call;
	}

	snapshot(): CountersSnapshot {
		return {
			methods: { ...this.methods },
			byChat: { ...this.byChat },
			calls: this.calls.map((call) => ({ ...call }))
		};
	}

	reset(): void {
		this.methods = {};
		this.byChat = {};
		this.calls = [];
	}
}
