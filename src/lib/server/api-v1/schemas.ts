import { z } from 'zod';
import { JOB_STATUSES } from '../../schemas/job-status.ts';
import { LEAD_STATUSES } from '../../schemas/lead-status.ts';

/**
 * The zod schemas of /api/v1: the handlers parse their input and their answers with them, and
 * openapi.ts turns the same objects into the OpenAPI document.
 */
const isoTime = z.iso.datetime({ offset: true }).describe('ISO 8601 time (UTC)');
const jobCounts = z.object(
	Object.fromEntries(JOB_STATUSES.map((s) => [s, z.number().int()])) as Record<
		(typeof JOB_STATUSES)[number],
		z.ZodNumber
	>
);

export const eventIdParams = z.object({ id: z.coerce.number().int().positive().describe('events.id') });
export const leadIdParams = z.object({ id: z.coerce.number().int().positive().describe('The lead number') });

export const eventStats = z.object({
	id: z.number().int(),
	name: z.string(),
	state: z.string(),
	startsOn: z.string().nullable(),
	endsOn: z.string().nullable(),
	sessions: z.number().int().describe('Kiosk sessions of the event'),
	jobs: z.number().int().describe('Packs asked for'),
	packsDelivered: z.number().int().describe('Packs whose link reached the guest')
});
export const eventList = z.object({ events: z.array(eventStats) });
export const eventDetail = eventStats.extend({
	packs: z.array(
		z.object({ templateId: z.string().describe('The outfit'), jobs: jobCounts, delivered: z.number().int() })
	)
});

export const jobsSummaryQuery = z.object({
	since: isoTime.optional().describe('Only jobs created at or after this time')
});
export const jobsSummary = z.object({ byStatus: jobCounts, total: z.number().int(), packsDelivered: z.number().int() });

export const leadsFilter = z.object({
	status: z.enum(LEAD_STATUSES).optional(),
	since: isoTime.optional().describe('Only leads created at or after this time')
});
export const leadsPageQuery = leadsFilter.extend({
	page: z.coerce.number().int().min(1).default(1),
	pageSize: z.coerce.number().int().min(1).max(200).default(50)
});
const lead = z.object({
	id: z.number().int(),
	createdAt: z.string(),
	name: z.string().nullable(),
	telegram: z.string().nullable(),
	phone: z.string().nullable(),
	eventDate: z.string().nullable(),
	guests: z.string().nullable(),
	locale: z.string().nullable(),
	utmSource: z.string().nullable(),
	status: z.string(),
	statusByName: z.string().nullable(),
	statusAt: z.string().nullable(),
	erasedAt: z.string().nullable().describe('Set when the lead was erased; contact fields are empty then')
});
export const leadsPage = z.object({
	page: z.number().int(),
	pageSize: z.number().int(),
	total: z.number().int(),
	leads: z.array(lead)
});

export const leadStatusBody = z.object({ status: z.enum(LEAD_STATUSES) });
export const leadStatusResult = z.object({ outcome: z.enum(['changed', 'unchanged']) });

export const apiError = z.object({
	error: z.object({
		code: z.string(),
		message: z.string(),
		issues: z.array(z.object({ path: z.string(), message: z.string() })).optional()
	})
});
