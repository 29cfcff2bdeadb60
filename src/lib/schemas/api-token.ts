import { z } from 'zod';

/**
 * Personal API tokens: what a token may do and what the console asks for when one is made.
 * Shared by the console form and the server, which validates the same object again.
 */
export const API_SCOPES = ['stats:read', 'leads:read', 'leads:write'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const API_TOKEN_MAX_DAYS = 365;
export const API_TOKEN_DEFAULT_RATE = 60;

export const createApiTokenInput = z.object({
	name: z.string().trim().min(1, 'Give the token a name.').max(80),
	scopes: z
		.array(z.enum(API_SCOPES))
		.min(1, 'Choose at least one scope.')
		.transform((scopes) => [...new Set(scopes)]),
	expiresInDays: z.number().int().min(1).max(API_TOKEN_MAX_DAYS),
	ratePerMinute: z.number().int().min(1).max(600).default(API_TOKEN_DEFAULT_RATE)
});
export type CreateApiTokenInput = z.input<typeof createApiTokenInput>;
