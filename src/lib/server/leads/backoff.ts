import { HOUR, SECOND } from '../time/clock.ts';
import type { BackoffPolicy } from '../time/backoff.ts';

/**
 * The backoff of the leads outboxes (cards, card edits, repeat pings): 15 s, 30 s, 1 min … capped
 * at 1 h, with ±20 % jitter so many failed rows do not retry in lockstep. The outbox driver's
 * failure ladder never retries sooner than a 429's retry_after.
 */
export const LEADS_BACKOFF: BackoffPolicy = { baseMs: 15 * SECOND, capMs: HOUR, jitter: [0.8, 1.2] };
