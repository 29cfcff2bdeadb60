/**
 * The six statuses of a lead (leads.status), in the order the buttons show them.
 * Shared by the bot (card buttons), the console and the server rules.
 */
export const LEAD_STATUSES = ['new', 'in_work', 'contacted', 'deal', 'refused', 'spam'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export function isLeadStatus(value: unknown): value is LeadStatus {
	return typeof value === 'string' && (LEAD_STATUSES as readonly string[]).includes(value);
}
