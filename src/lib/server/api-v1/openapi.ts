import { z } from 'zod';
import type { Endpoint } from './endpoint.ts';
import { apiError } from './schemas.ts';

/**
 * The OpenAPI 3.1 document of /api/v1, made from the endpoints' own zod schemas with
 * z.toJSONSchema (JSON Schema 2020-12, the dialect OpenAPI 3.1 uses). Input schemas are shown as
 * the caller sends them (io: input), answers as they come back.
 */
type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
	const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
		io,
		target: 'draft-2020-12',
		unrepresentable: 'throw'
	}) as JsonSchema;
	return rest;
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const errorAnswer = (description: string) => ({ description, content: { 'application/json': { schema: ERROR_REF } } });

function parametersOf(endpoint: Endpoint): JsonSchema[] {
	const place = (where: 'path' | 'query', shape: z.ZodObject | undefined) =>
		Object.entries(shape?.shape ?? {}).map(([name, field]) => {
			const schema = schemaOf(field as z.ZodType, 'input');
			const { description, ...rest } = schema;
			return {
				name,
				in: where,
				required: where === 'path' || !(field as z.ZodType).safeParse(undefined).success,
				schema: rest,
				...(description ? { description } : {})
			};
		});
	return [...place('path', endpoint.params), ...place('query', endpoint.query)];
}

function operationOf(endpoint: Endpoint): JsonSchema {
	const success =
		'csv' in endpoint.answer
			? { description: 'A CSV file (RFC 4180, UTF-8)', content: { 'text/csv': { schema: { type: 'string' } } } }
			: { description: 'OK', content: { 'application/json': { schema: schemaOf(endpoint.answer.json, 'output') } } };
	return {
		operationId: endpoint.operationId,
		summary: endpoint.summary,
		description: `Needs the \`${endpoint.scope}\` scope.`,
		security: [{ bearerToken: [endpoint.scope] }],
		parameters: parametersOf(endpoint),
		...(endpoint.body
			? {
					requestBody: { required: true, content: { 'application/json': { schema: schemaOf(endpoint.body, 'input') } } }
				}
			: {}),
		responses: {
			'200': success,
			'400': errorAnswer('The input does not match the operation'),
			'401': errorAnswer('Missing, malformed, unknown, revoked or expired token (see WWW-Authenticate)'),
			'403': errorAnswer('The token lacks the scope'),
			'404': errorAnswer('No such record'),
			'429': {
				...errorAnswer('Over the token’s rate; wait Retry-After seconds'),
				headers: { 'Retry-After': { schema: { type: 'integer' } } }
			}
		}
	};
}

export function buildOpenApiDocument(endpoints: readonly Endpoint[]): JsonSchema {
	const paths: Record<string, Record<string, JsonSchema>> = {};
	for (const endpoint of endpoints)
		(paths[endpoint.path] ??= {})[endpoint.method.toLowerCase()] = operationOf(endpoint);
	return {
		openapi: '3.1.0',
		info: {
			title: 'Sticker kiosk API',
			version: '1',
			description: 'Statistics and leads for outside systems. Authenticate with a personal API token from the console.'
		},
		servers: [{ url: '/api/v1' }],
		security: [{ bearerToken: [] }],
		paths,
		components: {
			securitySchemes: {
				bearerToken: {
					type: 'http',
					scheme: 'bearer',
					description: 'A personal API token (skt_…) made on the console’s API tokens page'
				}
			},
			schemas: { Error: schemaOf(apiError, 'output') }
		}
	};
}
