import type { Db } from '../db/client.ts';
import { lockKeys } from '../db/dialect/row-locks.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import type { Clock } from '../time/clock.ts';
import { DAY, HOUR } from '../time/clock.ts';
import {
	countSubmissionsFromIpSince,
	findLeadIdByRequestId,
	findRecentLeadByContact,
	insertLead,
	insertRepeat,
	type Lead,
	type NewLead,
	type NewRepeat
} from './leads.repository.ts';

/**
 * Storing a landing submission. One BEGIN IMMEDIATE transaction decides everything, so a double
 * click, a retry and two racing requests with the same request_id end with one row (on PostgreSQL
 * the transaction first locks what it decides on, intakeKeys, and the unique request_id is the
 * backstop that tells a second one already_received):
 *   same request_id again      → already_received (the first row stands)
 *   too many from this ip_hash → rate_limited
 *   same @username or phone within 24 h of a lead → a lead_repeats row with only what differs
 *   otherwise                  → a new lead (the worker's outbox posts its card)
 */
export const REPEAT_WINDOW_MS = DAY;
export const RATE_LIMIT = { max: 8, windowMs: HOUR } as const;

export type IntakeResult =
	{ outcome: 'lead' | 'repeat' | 'already_received'; leadId: number } | { outcome: 'rate_limited' };

export type IncomingLead = Omit<NewLead, 'createdAt'>;

export async function receiveLead(deps: { db: Db; clock: Clock }, incoming: IncomingLead): Promise<IntakeResult> {
	return decideIntake(deps, incoming).catch(async (error: unknown) => {
		// The same request_id at once on two web processes (PostgreSQL): the unique key kept one row.
		const existing = isUniqueViolation(error) ? await findLeadIdByRequestId(deps.db, incoming.requestId) : null;
		if (existing === null) throw error;
		return { outcome: 'already_received', leadId: existing };
	});
}

function decideIntake(deps: { db: Db; clock: Clock }, incoming: IncomingLead): Promise<IntakeResult> {
	const now = deps.clock.now();
	return deps.db.$transaction(async (tx) => {
		await lockKeys(tx, intakeKeys(incoming));
		const existing = await findLeadIdByRequestId(tx, incoming.requestId);
		if (existing !== null) return { outcome: 'already_received', leadId: existing };
		const recent = await countSubmissionsFromIpSince(
			tx,
			incoming.ipHash,
			new Date(now.getTime() - RATE_LIMIT.windowMs).toISOString()
		);
		if (recent >= RATE_LIMIT.max) return { outcome: 'rate_limited' };
		const original = await findRecentLeadByContact(
			tx,
			incoming,
			new Date(now.getTime() - REPEAT_WINDOW_MS).toISOString()
		);
		if (original) {
			await insertRepeat(tx, describeRepeat(original, incoming, now.toISOString()));
			return { outcome: 'repeat', leadId: original.id };
		}
		const lead = await insertLead(tx, { ...incoming, createdAt: now.toISOString() });
		return { outcome: 'lead', leadId: lead.id };
	});
}

/**
 * What the intake decides on, locked first (on PostgreSQL: SQLite's BEGIN IMMEDIATE already runs
 * one intake at a time): the client's hour of submissions and each contact's recent lead. Two
 * submissions racing on two web processes are then decided one after the other — the second is a
 * repeat of the first's lead, and the ninth of an hour is refused — although neither row exists
 * yet when both begin. Keys live only in the lock (PostgreSQL keeps their hash), never in a table.
 */
function intakeKeys(incoming: IncomingLead): string[] {
	return [
		`lead-ip:${incoming.ipHash}`,
		...(incoming.telegram !== undefined ? [`lead-telegram:${incoming.telegram.toLowerCase()}`] : []),
		...(incoming.phone !== undefined ? [`lead-phone:${incoming.phone}`] : [])
	];
}

/**
 * A repeat keeps only the fields that differ from the lead (the rest is already there), plus the repeated
 * submission's own locale, utm_source and ip_hash. The username compares case-insensitively.
 */
export function describeRepeat(lead: Lead, incoming: IncomingLead, at: string): NewRepeat {
	const differs = (a: string | null | undefined, b: string | undefined) => b !== undefined && b !== (a ?? undefined);
	const telegramDiffers =
		incoming.telegram !== undefined && incoming.telegram.toLowerCase() !== (lead.telegram ?? '').toLowerCase();
	return {
		leadId: lead.id,
		requestId: incoming.requestId,
		at,
		telegram: telegramDiffers ? incoming.telegram : null,
		phone: differs(lead.phone, incoming.phone) ? incoming.phone : null,
		eventDate: differs(lead.eventDate, incoming.eventDate) ? incoming.eventDate : null,
		guests: differs(lead.guests, incoming.guests) ? incoming.guests : null,
		comment: differs(lead.comment, incoming.comment) ? incoming.comment : null,
		locale: incoming.locale,
		utmSource: incoming.utmSource ?? null,
		ipHash: incoming.ipHash
	};
}
