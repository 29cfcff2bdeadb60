import { z } from 'zod';
import type { Db } from '../db/client.ts';

/**
 * The Job page's readable QA: one row per sticker joining the local gate (job<N>_consistency.json:
 * faces, visible share, reasons) and the provider's pack review (job<N>_likeness.json `pack`:
 * likeness, one person, cropped, notes), with whether it was drawn again. Files written by older
 * versions may lack fields: what is missing shows as unknown, never as a pass.
 */
const localVerdict = z.object({
	n: z.number(),
	ok: z.boolean(),
	faces: z.number().optional(),
	coverage: z.number().optional(),
	reasons: z.array(z.string()).default([]),
	regenerated: z.boolean().optional(),
	head: z.boolean().optional()
});
const reviewVerdict = z.object({
	n: z.number(),
	ok: z.boolean(),
	likeness: z.number().optional(),
	onePerson: z.boolean().optional(),
	cropped: z.boolean().optional(),
	notes: z.array(z.string()).default([]),
	regenerated: z.boolean().optional()
});
const consistencyFile = z.object({ stickers: z.array(localVerdict) });
const likenessFile = z.object({ pack: z.object({ stickers: z.array(reviewVerdict) }) });

export interface StickerVerdictRow {
	n: number;
	local: z.infer<typeof localVerdict> | null;
	review: z.infer<typeof reviewVerdict> | null;
	regenerated: boolean;
	/** The guest's head was pasted on (composite). */
	head: boolean;
}

export function stickerVerdictRows(consistency: unknown, likeness: unknown): StickerVerdictRow[] {
	const local = consistencyFile.safeParse(consistency);
	const review = likenessFile.safeParse(likeness);
	const locals = local.success ? local.data.stickers : [];
	const reviews = review.success ? review.data.pack.stickers : [];
	const numbers = [...new Set([...locals.map((v) => v.n), ...reviews.map((v) => v.n)])].sort((a, b) => a - b);
	return numbers.map((n) => {
		const l = locals.find((v) => v.n === n) ?? null;
		const r = reviews.find((v) => v.n === n) ?? null;
		return { n, local: l, review: r, regenerated: Boolean(l?.regenerated || r?.regenerated), head: Boolean(l?.head) };
	});
}

/** What the bot said to the guest and what they wrote, while this job was theirs. */
export interface GuestMessage {
	at: string;
	direction: string;
	kind: string;
	text: string | null;
}

/** The job's window: from its creation to a few minutes after it last changed (the link, a failure notice). */
const AFTER_LAST_CHANGE_MS = 10 * 60_000;

export async function readGuestMessages(
	db: Db,
	job: { telegramUserId: bigint; createdAt: string; updatedAt: string; finished: boolean }
): Promise<GuestMessage[]> {
	const until = job.finished ? new Date(Date.parse(job.updatedAt) + AFTER_LAST_CHANGE_MS).toISOString() : undefined;
	const rows = await db.botMessage.findMany({
		where: { telegramUserId: job.telegramUserId, at: { gte: job.createdAt, ...(until ? { lte: until } : {}) } },
		orderBy: { at: 'asc' },
		take: 100,
		select: { at: true, direction: true, kind: true, text: true }
	});
	return rows;
}
