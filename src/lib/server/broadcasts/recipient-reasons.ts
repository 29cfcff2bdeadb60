/**
 * The words the broadcast outbox records in broadcast_recipients.error when a row ends without a
 * message, and how many tries a row gets. Kept apart from broadcast-outbox.ts (which reaches
 * Telegram) so the console's reading of them (recipient-outcome.ts) uses the very same strings
 * without the web loading a Telegram sender.
 */
export const RECIPIENT_REASON = {
	/** No users row any more when its turn came (forgotten or erased after the audience was chosen). */
	gone: 'no longer a guest',
	/** Their news opt-in is no longer `in`, though they never ended it themselves. */
	notOptedIn: 'no longer opted in to news',
	/** /stop or the "no more messages" button. */
	optedOut: 'opted out',
	/** Already marked as having blocked the bot: no call made. */
	blockedKnown: 'blocked the bot',
	/** Telegram refused the message because they blocked the bot (its 403). */
	blockedOnSend: 'blocked the bot (403)',
	/** The operator cancelled the broadcast before this row's turn. */
	cancelled: 'cancelled',
	/** Waiting for a place in the send budget (no try counted). */
	noPlace: 'no place in the send budget yet'
} as const;

/** The counted failure at which a broadcast row is given up. */
export const BROADCAST_MAX_ATTEMPTS = 6;
