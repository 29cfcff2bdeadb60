import type { LeadCardDeps } from '../../lib/server/telegram/lead-card-edit.ts';

/** What every leads task takes: plain arguments, so tests pass a FakeClock and the emulator. */
export interface LeadsTaskDeps extends LeadCardDeps {
	/** The sales group; null = not configured (leads wait in the outbox). */
	chatId: bigint | null;
}
