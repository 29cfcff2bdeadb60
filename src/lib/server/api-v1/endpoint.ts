import type { z } from 'zod';
import type { ApiScope } from '../../schemas/api-token.ts';
import type { TokenIdentity } from '../api-tokens/bearer-auth.ts';
import type { AppContext } from '../web/app-context.ts';

/**
 * One /api/v1 operation: its path (OpenAPI style, `{id}` for a parameter), the scope it needs, the
 * zod schemas of its input and answer, and the handler. The router and the OpenAPI document both
 * read this one description.
 */
export interface ApiContext extends AppContext {
	identity: TokenIdentity;
	clientIp: string | null;
}

type Shape = z.ZodObject;

export interface Endpoint<
	P extends Shape | undefined = Shape | undefined,
	Q extends Shape | undefined = Shape | undefined,
	B extends Shape | undefined = Shape | undefined
> {
	method: 'GET' | 'POST';
	path: string;
	operationId: string;
	summary: string;
	scope: ApiScope;
	params?: P;
	query?: Q;
	body?: B;
	/** A JSON answer with this schema, or a CSV file. */
	answer: { json: z.ZodType } | { csv: string };
	handle: (ctx: ApiContext, input: { params: Infer<P>; query: Infer<Q>; body: Infer<B> }) => Promise<unknown>;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string
	) {
		super(message);
	}
}

/** Keeps each endpoint's handler typed by its own schemas while the registry holds them all. */
export function defineEndpoint<
	P extends Shape | undefined = undefined,
	Q extends Shape | undefined = undefined,
	B extends Shape | undefined = undefined
>(endpoint: Endpoint<P, Q, B>): Endpoint {
	return endpoint as unknown as Endpoint;
}
