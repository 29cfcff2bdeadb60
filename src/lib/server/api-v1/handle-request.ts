import { z } from 'zod';
import { authenticateBearer, type BearerResult } from '../api-tokens/bearer-auth.ts';
import { apiTokenLimit } from '../api-tokens/token-rate-limit.ts';
import { roleAllowsScope } from '../auth/roles.ts';
import { takeToken } from '../rate-limits/rate-limit-buckets.repository.ts';
import type { AppContext } from '../web/app-context.ts';
import { ApiError, type Endpoint } from './endpoint.ts';
import { API_ENDPOINTS } from './endpoints.ts';
import { buildOpenApiDocument } from './openapi.ts';

/**
 * Answers one /api/v1 request: bearer token → rate limit → scope → input → handler. Only the
 * Authorization header identifies the caller; cookies are never read here, so a console session
 * cannot act through the API (and a token never reaches the console, which reads only its cookie).
 */
const REFUSALS: Record<Exclude<BearerResult, { ok: true }>['reason'], string> = {
	missing: 'Send the token as "Authorization: Bearer <token>".',
	malformed: 'The Authorization header is not a bearer token of this service.',
	invalid: 'This token is not valid.',
	revoked: 'This token was revoked.',
	expired: 'This token has expired.'
};

export async function handleApiRequest(
	app: AppContext,
	request: Request,
	path: string,
	clientIp: string | null
): Promise<Response> {
	try {
		if (path === '/openapi.json' && request.method === 'GET') return json(200, buildOpenApiDocument(API_ENDPOINTS));
		const now = app.clock.now();
		const auth = await authenticateBearer(app.db, now, request.headers.get('authorization'));
		if (!auth.ok) {
			const challenge =
				auth.reason === 'missing'
					? 'Bearer realm="api"'
					: `Bearer realm="api", error="invalid_token", error_description="${auth.reason}"`;
			return errorJson(401, 'unauthorized', REFUSALS[auth.reason], { 'www-authenticate': challenge });
		}
		const rate = await takeToken(
			app.db,
			app.clock,
			apiTokenLimit(auth.identity.ratePerMinute),
			String(auth.identity.tokenId)
		);
		if (!rate.allowed)
			return errorJson(
				429,
				'rate_limited',
				`Too many requests for this token; try again in ${rate.retryAfterSeconds} s.`,
				{ 'retry-after': String(rate.retryAfterSeconds) }
			);
		const found = matchEndpoint(request.method, path);
		if (!found) return errorJson(404, 'not_found', 'There is no such API operation.');
		if (found === 'method')
			return errorJson(405, 'method_not_allowed', `This operation does not take ${request.method}.`);
		const { endpoint, params } = found;
		const { identity } = auth;
		const challenge = {
			'www-authenticate': `Bearer realm="api", error="insufficient_scope", scope="${endpoint.scope}"`
		};
		if (!identity.scopes.includes(endpoint.scope))
			return errorJson(403, 'insufficient_scope', `This token lacks the ${endpoint.scope} scope.`, challenge);
		// The operator's role now, not when the token was made: a demotion takes effect at once.
		const { role, username } = identity.operator;
		if (!roleAllowsScope(role, endpoint.scope)) {
			return errorJson(
				403,
				'insufficient_scope',
				`This token belongs to ${username}, whose role is now ${role}; a ${role} may not use the ${endpoint.scope} scope.`,
				challenge
			);
		}
		const input = await readInput(endpoint, params, request);
		const result = await endpoint.handle({ ...app, identity, clientIp }, input);
		if ('csv' in endpoint.answer)
			return new Response(result as string, {
				headers: {
					'content-type': 'text/csv; charset=utf-8',
					'content-disposition': `attachment; filename="${endpoint.answer.csv}"`,
					'cache-control': 'no-store'
				}
			});
		return json(200, checkedAnswer(endpoint, endpoint.answer.json, result));
	} catch (error) {
		if (error instanceof ApiError) return errorJson(error.status, error.code, error.message);
		if (error instanceof z.ZodError)
			return errorJson(400, 'invalid_input', 'The request does not match the operation.', {}, issuesOf(error));
		throw error;
	}
}

/** The answer must match the schema the OpenAPI document shows; a mismatch is our bug, not the caller's. */
function checkedAnswer(endpoint: Endpoint, schema: z.ZodType, result: unknown): unknown {
	const checked = schema.safeParse(result);
	if (!checked.success)
		throw new Error(`${endpoint.operationId} answered outside its schema: ${checked.error.message}`);
	return checked.data;
}

function matchEndpoint(
	method: string,
	path: string
): { endpoint: Endpoint; params: Record<string, string> } | 'method' | null {
	let pathKnown = false;
	for (const endpoint of API_ENDPOINTS) {
		const params = matchPath(endpoint.path, path);
		if (!params) continue;
		if (endpoint.method === method) return { endpoint, params };
		pathKnown = true;
	}
	return pathKnown ? 'method' : null;
}

function matchPath(pattern: string, path: string): Record<string, string> | null {
	const want = pattern.split('/');
	const got = path.split('/');
	if (want.length !== got.length) return null;
	const params: Record<string, string> = {};
	for (const [i, part] of want.entries()) {
		const name = /^\{(\w+)\}$/.exec(part)?.[1];
		if (name) params[name] = got[i]!;
		else if (part !== got[i]) return null;
	}
	return params;
}

async function readInput(endpoint: Endpoint, params: Record<string, string>, request: Request) {
	const url = new URL(request.url);
	const body = endpoint.body ? endpoint.body.parse(await readJsonBody(request)) : undefined;
	return {
		params: endpoint.params ? endpoint.params.parse(params) : undefined,
		query: endpoint.query ? endpoint.query.parse(Object.fromEntries(url.searchParams)) : undefined,
		body
	} as Parameters<Endpoint['handle']>[1];
}

async function readJsonBody(request: Request): Promise<unknown> {
	if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? ''))
		throw new ApiError(415, 'unsupported_media_type', 'Send the body as application/json.');
	try {
		return await request.json();
	} catch {
		throw new ApiError(400, 'invalid_json', 'The body is not valid JSON.');
	}
}

function issuesOf(error: z.ZodError) {
	return error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
	return new Response(JSON.stringify(body), {
		status,
		headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers }
	});
}

function errorJson(
	status: number,
	code: string,
	message: string,
	headers: Record<string, string> = {},
	issues?: { path: string; message: string }[]
): Response {
	return json(status, { error: { code, message, ...(issues ? { issues } : {}) } }, headers);
}
