import { createHash } from 'node:crypto';
import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';

/**
 * `media_files`: pictures the bot uploaded once, by the SHA-256 of their bytes. The next send of
 * the same bytes uses Telegram's file_id, so a catalogue picture is uploaded once, not per guest.
 */
export function contentHash(bytes: Buffer): string {
	return createHash('sha256').update(bytes).digest('hex');
}

export async function findTelegramFileId(db: Db, hash: string): Promise<string | null> {
	return (
		(await db.mediaFile.findUnique({ where: { contentHash: hash }, select: { telegramFileId: true } }))
			?.telegramFileId ?? null
	);
}

export async function rememberTelegramFileId(
	db: Db,
	clock: Clock,
	hash: string,
	kind: string,
	telegramFileId: string
): Promise<void> {
	const data = { kind, telegramFileId, createdAt: clock.now().toISOString() };
	await db.mediaFile.upsert({ where: { contentHash: hash }, create: { contentHash: hash, ...data }, update: data });
}

/** Telegram refused a remembered file_id (a new bot token, say): upload again next time. */
export async function forgetTelegramFileId(db: Db, hash: string): Promise<void> {
	await db.mediaFile.deleteMany({ where: { contentHash: hash } });
}
