import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '../../src/lib/server/db/client.ts';

// Rows and files of one guest as the guest flow and generation write them, for the lifecycle and
// backup tests (times are given explicitly: the tests move a FakeClock, not the wall clock).

export interface GuestFixture {
	id: bigint;
	at: string;
	token?: string;
	jobStatus?: 'queued' | 'processing' | 'delivering' | 'done' | 'failed' | null;
	packName?: string;
}

export async function insertGuest(db: Db, guest: GuestFixture): Promise<{ token: string; jobId: number | null }> {
	const token = guest.token ?? `tok_${guest.id}`;
	await db.user.create({
		data: {
			telegramUserId: guest.id,
			createdAt: guest.at,
			consentedAt: guest.at,
			firstName: 'Guest',
			username: `guest${guest.id}`,
			packName: guest.packName ?? null
		}
	});
	await db.session.create({
		data: {
			sessionToken: token,
			telegramUserId: guest.id,
			status: 'photo_taken',
			templateId: 'suit',
			createdAt: guest.at,
			updatedAt: guest.at
		}
	});
	if (guest.jobStatus === null) return { token, jobId: null };
	const job = await db.job.create({
		data: {
			telegramUserId: guest.id,
			sessionToken: token,
			photoPath: `sessions/${token}/selfie_ab.jpg`,
			templateId: 'suit',
			status: guest.jobStatus ?? 'done',
			packName: guest.packName ?? null,
			appearanceJson: '{"hair":"brown"}',
			createdAt: guest.at,
			updatedAt: guest.at
		}
	});
	await db.apiUsage.create({
		data: { jobId: job.jobId, ts: guest.at, kind: 'image', provider: 'offline', ok: 1, estCostUsd: 0.04 }
	});
	return { token, jobId: job.jobId };
}

/** A file with the given modification time (the sweep judges age by mtime). */
export function writeFileAt(file: string, mtime: Date, content: string | Buffer = 'x'): string {
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, content);
	utimesSync(file, mtime, mtime);
	return file;
}
