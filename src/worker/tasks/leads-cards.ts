/** The card-edit task: one pass of the lead card edit outbox (leads/lead-card-edit-outbox.ts). */
export { applyPendingCardEdits } from '../../lib/server/leads/lead-card-edit-outbox.ts';
