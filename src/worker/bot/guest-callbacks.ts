import { z } from 'zod';
import { SESSION_TOKEN_PATTERN } from '../../lib/schemas/kiosk.ts';

/**
 * Callback data of the guest flow's buttons, validated with zod on the way back in. Telegram allows
 * at most 64 bytes: "gc:" + a 32-character token, "go:<outfit id ≤ 16>:" + token.
 */
const token = z.string().regex(SESSION_TOKEN_PATTERN);
const outfitId = z.string().regex(/^[a-z0-9_-]{1,16}$/);

const guestCallbackSchema = z.union([
	z
		.string()
		.regex(/^gc:/)
		.transform((data) => ({ kind: 'consent' as const, token: data.slice(3) }))
		.pipe(z.object({ kind: z.literal('consent'), token })),
	z
		.string()
		.regex(/^go:[^:]+:/)
		.transform((data) => {
			const [, id, rest] = /^go:([^:]+):(.*)$/.exec(data) ?? [];
			return { kind: 'outfit' as const, outfitId: id ?? '', token: rest ?? '' };
		})
		.pipe(z.object({ kind: z.literal('outfit'), outfitId, token }))
]);

export type GuestCallback = z.infer<typeof guestCallbackSchema>;

export function parseGuestCallback(data: string | undefined): GuestCallback | null {
	const parsed = guestCallbackSchema.safeParse(data ?? '');
	return parsed.success ? parsed.data : null;
}

function checked(data: string): string {
	if (Buffer.byteLength(data, 'utf8') > 64) throw new Error(`callback data over 64 bytes: ${data}`);
	return data;
}

export const consentCallback = (sessionToken: string) => checked(`gc:${sessionToken}`);
export const outfitCallback = (id: string, sessionToken: string) => checked(`go:${id}:${sessionToken}`);
