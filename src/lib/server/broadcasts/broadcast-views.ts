import path from 'node:path';
import { readVerifiedTelegramId } from '../auth/operator-telegram.ts';
import type { Db } from '../db/client.ts';
import type { Broadcast } from '../db/generated/client.ts';
import { RECIPIENT_STATES, type BroadcastState, type RecipientState } from '../../schemas/broadcast.schema.ts';
import { countAudience } from './audience.ts';
import { findTestSend } from './broadcast-recipients.repository.ts';
import { findBroadcast, listBroadcasts } from './broadcasts.repository.ts';
import { countOptedOutSince } from './news-opt-ins.repository.ts';
import { describeRecipient } from './recipient-outcome.ts';

/**
 * What the console's Broadcasts pages show: the list with progress, one broadcast's results
 * (sent, failed, blocked, skipped, still queued, and how many of its guests opted out since it
 * started), the audience a draft would reach now, and the operator's test-send target.
 */
export type RecipientCounts = Record<RecipientState, number>;

export interface BroadcastSummary {
	id: number;
	state: BroadcastState;
	eventId: number | null;
	eventName: string;
	excerpt: string;
	createdBy: string;
	createdAt: string;
	sendAt: string | null;
	startedAt: string | null;
	finishedAt: string | null;
	audienceCount: number | null;
	counts: RecipientCounts;
}

export interface BroadcastDetail extends BroadcastSummary {
	text: string;
	/** The stored picture's name (served by /api/console/broadcasts/image/<name>), or null. */
	imageName: string | null;
	buttonText: string | null;
	buttonUrl: string | null;
	optedOutSince: number;
	/** The audience right now (what "Send" would reach); for a started broadcast, its chosen rows. */
	audienceNow: number;
	failures: { reason: string; count: number }[];
	testSend: { state: string; error: string | null; at: string } | null;
	/** The operator's proven chat, where a test send goes; null until they link one on their profile. */
	myTelegramId: string | null;
}

const ALL_EVENTS = 'All events';

export async function readBroadcastList(db: Db): Promise<BroadcastSummary[]> {
	const broadcasts = await listBroadcasts(db);
	const names = await eventNames(db);
	return Promise.all(broadcasts.map(async (b) => summarise(b, names, await countRecipients(db, b.id))));
}

export async function readBroadcastDetail(db: Db, id: number, operatorId: number): Promise<BroadcastDetail | null> {
	const broadcast = await findBroadcast(db, id);
	if (!broadcast) return null;
	const [names, counts, optedOutSince, failures, testSend, myTelegramId] = await Promise.all([
		eventNames(db),
		countRecipients(db, id),
		readOptedOutSince(db, broadcast),
		readFailureReasons(db, id),
		findTestSend(db, id),
		readVerifiedTelegramId(db, operatorId)
	]);
	const audienceNow = broadcast.startedAt ? (broadcast.audienceCount ?? 0) : await countAudience(db, broadcast.eventId);
	return {
		...summarise(broadcast, names, counts),
		text: broadcast.text,
		imageName: broadcast.imagePath ? path.basename(broadcast.imagePath) : null,
		buttonText: broadcast.buttonText,
		buttonUrl: broadcast.buttonUrl,
		optedOutSince,
		audienceNow,
		failures,
		testSend: testSend
			? {
					state: testSend.state,
					// In the operator's words: a test copy ends the way a guest's does.
					error: testSend.error ? describeRecipient(testSend).words : null,
					at: testSend.sentAt ?? testSend.updatedAt
				}
			: null,
		myTelegramId: myTelegramId?.toString() ?? null
	};
}

/** Events an operator can address (every event except drafts), newest first. */
export async function readBroadcastEvents(db: Db): Promise<{ id: number; name: string; state: string }[]> {
	return db.event.findMany({
		where: { state: { not: 'draft' } },
		select: { id: true, name: true, state: true },
		orderBy: { id: 'desc' }
	});
}

function summarise(b: Broadcast, names: Map<number, string>, counts: RecipientCounts): BroadcastSummary {
	return {
		id: b.id,
		state: b.state as BroadcastState,
		eventId: b.eventId,
		eventName: b.eventId === null ? ALL_EVENTS : (names.get(b.eventId) ?? `Event #${b.eventId}`),
		excerpt: b.text.replace(/<[^>]*>/g, '').slice(0, 80),
		createdBy: b.createdBy,
		createdAt: b.createdAt,
		sendAt: b.sendAt,
		startedAt: b.startedAt,
		finishedAt: b.finishedAt,
		audienceCount: b.audienceCount,
		counts
	};
}

async function eventNames(db: Db): Promise<Map<number, string>> {
	const events = await db.event.findMany({ select: { id: true, name: true } });
	return new Map(events.map((e) => [e.id, e.name]));
}

async function countRecipients(db: Db, broadcastId: number): Promise<RecipientCounts> {
	const groups = await db.broadcastRecipient.groupBy({
		by: ['state'],
		where: { broadcastId, test: false },
		_count: { _all: true }
	});
	const counts = Object.fromEntries(RECIPIENT_STATES.map((s) => [s, 0])) as RecipientCounts;
	for (const g of groups) if (g.state in counts) counts[g.state as RecipientState] = g._count._all;
	return counts;
}

/** Guests of this broadcast who opted out (button or /stop) after it started. */
async function readOptedOutSince(db: Db, broadcast: Broadcast): Promise<number> {
	if (!broadcast.startedAt) return 0;
	const rows = await db.broadcastRecipient.findMany({
		where: { broadcastId: broadcast.id, test: false },
		select: { telegramUserId: true }
	});
	if (rows.length === 0) return 0;
	return countOptedOutSince(
		db,
		rows.map((r) => r.telegramUserId),
		broadcast.startedAt
	);
}

/** Why guests did not get it, in the operator's words (recipient-outcome.ts), most common first. */
async function readFailureReasons(db: Db, broadcastId: number): Promise<{ reason: string; count: number }[]> {
	const groups = await db.broadcastRecipient.groupBy({
		by: ['state', 'error', 'attempts'],
		where: { broadcastId, test: false, state: { in: ['failed', 'blocked', 'skipped'] } },
		_count: { _all: true }
	});
	const byWords = new Map<string, number>();
	for (const g of groups) {
		const { words } = describeRecipient({ ...g, sentAt: null, nextAttemptAt: null, updatedAt: '' });
		byWords.set(words, (byWords.get(words) ?? 0) + g._count._all);
	}
	return [...byWords].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count);
}
