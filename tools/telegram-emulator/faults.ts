import { z } from 'zod';

// Faults a test (or a person at the control API) arms for the next N calls of a method,
// optionally only for one chat: flood control, server errors, slowness, a dropped connection.

export const faultSpecSchema = z.discriminatedUnion('kind', [
	z.object({ kind: z.literal('429'), retry_after: z.number().int().min(1).max(3600).default(5) }),
	z.object({ kind: z.literal('5xx'), status: z.number().int().min(500).max(599).default(500) }),
	z.object({ kind: z.literal('delay'), ms: z.number().int().min(0).max(120_000) }),
	// Holds the call until the faults are cleared (DELETE faults), then runs it: a Telegram slow for
	// as long as a test wants, ended by an event instead of a clock.
	z.object({ kind: z.literal('hold') }),
	z.object({ kind: z.literal('drop') })
]);

export const faultInputSchema = z.intersection(
	faultSpecSchema,
	z.object({
		method: z.string().min(1),
		chat_id: z.number().int().optional(),
		times: z.number().int().min(1).default(1)
	})
);

export type FaultSpec = z.infer<typeof faultSpecSchema>;
export type FaultInput = z.input<typeof faultInputSchema>;

export interface ArmedFault {
	id: number;
	method: string;
	chatId?: number;
	remaining: number;
	spec: FaultSpec;
}

export type FaultView = FaultSpec & {
	id: number;
	method: string;
	chat_id?: number;
	remaining: number;
};

function faultView({ id, method, chatId, remaining, spec }: ArmedFault): FaultView {
	return { id, method, chat_id: chatId, remaining, ...spec };
}

export interface FaultPlan {
	delayMs: number;
	/** Resolves when the faults are cleared: a `hold` fault matched and the call waits for it. */
	held?: Promise<void>;
	/** The one fault that decides the outcome, if any (delays and holds only slow a call down). */
	failure?: Exclude<FaultSpec, { kind: 'delay' | 'hold' }>;
}

export class FaultRegistry {
	private faults: ArmedFault[] = [];
	private nextId = 1;
	private release = () => {};
	private released = new Promise<void>((resolve) => (this.release = resolve));

	arm(input: FaultInput): FaultView {
		const parsed = faultInputSchema.parse(input);
		const { method, chat_id, times, ...spec } = parsed;
		const fault: ArmedFault = {
			id: this.nextId++,
			method: method.toLowerCase(),
			chatId: chat_id,
			remaining: times,
			spec: spec as FaultSpec
		};
		this.faults.push(fault);
		return faultView(fault);
	}

	/** As the control API shows them: the input's shape plus id and calls remaining. */
	list(): FaultView[] {
		return this.faults.map(faultView);
	}

	/** Disarms every fault and lets the held calls go on. */
	clear(): void {
		this.faults = [];
		this.release();
		this.released = new Promise<void>((resolve) => (this.release = resolve));
	}

	/** Consumes the faults matching this call: every delay, then the first failure. */
	take(method: string, chatId: number | undefined): FaultPlan {
		const plan: FaultPlan = { delayMs: 0 };
		const name = method.toLowerCase();
		for (const fault of this.faults) {
			const matches = fault.method === name && (fault.chatId === undefined || fault.chatId === chatId);
			if (!matches || fault.remaining <= 0) continue;
			if (fault.spec.kind === 'delay') plan.delayMs += fault.spec.ms;
			else if (fault.spec.kind === 'hold') plan.held = this.released;
			else if (plan.failure) continue;
			else plan.failure = fault.spec;
			fault.remaining -= 1;
		}
		this.faults = this.faults.filter((fault) => fault.remaining > 0);
		return plan;
	}
}
