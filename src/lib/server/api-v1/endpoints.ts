import { CONSOLE_ACTOR_ID, setLeadStatus } from '../leads/lead-status.ts';
import { jobsSummary, listEventStats, packStatsOfEvent } from './api-stats.repository.ts';
import { ApiError, defineEndpoint, type Endpoint } from './endpoint.ts';
import { leadsCsv, leadsPage } from './leads-api.ts';
import * as s from './schemas.ts';

/** Every /api/v1 operation; docs/api.md describes them for people. */
export const API_ENDPOINTS: Endpoint[] = [
	defineEndpoint({
		method: 'GET',
		path: '/events',
		operationId: 'listEvents',
		summary: 'Every event with its kiosk sessions, packs asked for and packs delivered',
		scope: 'stats:read',
		answer: { json: s.eventList },
		handle: async (ctx) => ({ events: await listEventStats(ctx.db) })
	}),
	defineEndpoint({
		method: 'GET',
		path: '/events/{id}',
		operationId: 'getEvent',
		summary: "One event's statistics with its packs per outfit",
		scope: 'stats:read',
		params: s.eventIdParams,
		answer: { json: s.eventDetail },
		handle: async (ctx, { params }) => {
			const [event] = await listEventStats(ctx.db, params.id);
			if (!event) throw new ApiError(404, 'not_found', `There is no event #${params.id}.`);
			return { ...event, packs: await packStatsOfEvent(ctx.db, params.id) };
		}
	}),
	defineEndpoint({
		method: 'GET',
		path: '/jobs/summary',
		operationId: 'jobsSummary',
		summary: 'Generation jobs by status',
		scope: 'stats:read',
		query: s.jobsSummaryQuery,
		answer: { json: s.jobsSummary },
		handle: (ctx, { query }) => jobsSummary(ctx.db, query.since && new Date(query.since).toISOString())
	}),
	defineEndpoint({
		method: 'GET',
		path: '/leads',
		operationId: 'listLeads',
		summary: 'Leads, newest first, a page at a time',
		scope: 'leads:read',
		query: s.leadsPageQuery,
		answer: { json: s.leadsPage },
		handle: (ctx, { query }) =>
			leadsPage(ctx.db, { ...query, since: query.since && new Date(query.since).toISOString() })
	}),
	defineEndpoint({
		method: 'GET',
		path: '/leads/export.csv',
		operationId: 'exportLeads',
		summary: 'Leads as a CSV file, oldest first (cells that would start a formula are prefixed with an apostrophe)',
		scope: 'leads:read',
		query: s.leadsFilter,
		answer: { csv: 'leads.csv' },
		handle: (ctx, { query }) =>
			leadsCsv(ctx.db, { ...query, since: query.since && new Date(query.since).toISOString() })
	}),
	defineEndpoint({
		method: 'POST',
		path: '/leads/{id}/status',
		operationId: 'setLeadStatus',
		summary: "Changes a lead's status as the console does (history, card edit, audit under the token's owner)",
		scope: 'leads:write',
		params: s.leadIdParams,
		body: s.leadStatusBody,
		answer: { json: s.leadStatusResult },
		handle: async (ctx, { params, body }) => {
			const { username } = ctx.identity.operator;
			const audit = {
				actor: { name: username, ip: ctx.clientIp },
				details: { via: 'api', tokenId: ctx.identity.tokenId }
			};
			const change = await setLeadStatus(
				ctx,
				params.id,
				body.status,
				{ telegramUserId: CONSOLE_ACTOR_ID, name: `api: ${username}` },
				audit
			);
			if (change.outcome === 'not_found') throw new ApiError(404, 'not_found', `There is no lead #${params.id}.`);
			ctx.logger.info(
				{
					leadId: params.id,
					status: body.status,
					outcome: change.outcome,
					by: username,
					tokenId: ctx.identity.tokenId
				},
				'lead status set through the API'
			);
			return { outcome: change.outcome };
		}
	})
];
