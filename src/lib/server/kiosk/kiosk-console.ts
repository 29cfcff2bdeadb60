import QRCode from 'qrcode';
import { markerFeeds } from '../console/change-feed.ts';
import type { Db } from '../db/client.ts';
import { DEFAULT_EVENT_ID } from '../events/events.repository.ts';
import type { Clock } from '../time/clock.ts';
import { OPEN_STATUSES, type OpenStatus } from '../../schemas/kiosk.ts';
import { isKioskOnline, KIOSK_ONLINE_WITHIN_SECONDS } from './kiosk-presence.ts';
import { readStaffPinState, type StaffPinState } from './staff-pin-setting.ts';

/** The console's Kiosks page: every kiosk, whether it is online, the event it works for and the session it shows. */
export interface KioskRow {
	id: number;
	name: string;
	createdAt: string;
	lastSeenAt: string | null;
	/** By the server's clock when the list was read; the page recomputes it as time passes (onlineWithinSeconds). */
	online: boolean;
	revokedAt: string | null;
	/** The live event it works for (assigned), else the default event: the event its next guest session belongs to. */
	event: { id: number; name: string; assigned: boolean } | null;
	/** Its guest session still open now, if any (normally at most one). */
	session: { status: OpenStatus; startedAt: string; changedAt: string } | null;
}

export interface KiosksView {
	kiosks: KioskRow[];
	staffPin: StaffPinState;
	serverNow: string;
	onlineWithinSeconds: number;
}

export async function readKiosksView(db: Db, clock: Clock, environmentPin: string | undefined): Promise<KiosksView> {
	const now = clock.now();
	const rows = await db.kiosk.findMany({
		orderBy: { name: 'asc' },
		select: { id: true, name: true, createdAt: true, lastSeenAt: true, revokedAt: true }
	});
	const [events, sessions, staffPin] = await Promise.all([
		liveEventsOf(
			db,
			rows.map((r) => r.id)
		),
		openSessionsOf(db),
		readStaffPinState(db, environmentPin)
	]);
	const kiosks = rows.map((row) => ({
		...row,
		online: !row.revokedAt && isKioskOnline(row.lastSeenAt, now),
		event: row.revokedAt ? null : (events.live.get(row.id) ?? events.fallback),
		session: sessions.get(row.id) ?? null
	}));
	// Active kiosks first (revoked ones keep their names and history, so they stay listed below).
	kiosks.sort((a, b) => Number(a.revokedAt !== null) - Number(b.revokedAt !== null) || a.name.localeCompare(b.name));
	return { kiosks, staffPin, serverNow: now.toISOString(), onlineWithinSeconds: KIOSK_ONLINE_WITHIN_SECONDS };
}

async function liveEventsOf(db: Db, kioskIds: number[]) {
	const links = await db.eventKiosk.findMany({
		where: { kioskId: { in: kioskIds } },
		select: { kioskId: true, eventId: true }
	});
	const events = await db.event.findMany({
		where: { OR: [{ state: 'live', id: { in: links.map((l) => l.eventId) } }, { id: DEFAULT_EVENT_ID }] },
		select: { id: true, name: true, state: true }
	});
	const live = new Map<number, KioskRow['event']>();
	for (const link of links) {
		const event = events.find((e) => e.id === link.eventId && e.state === 'live');
		if (event) live.set(link.kioskId, { id: event.id, name: event.name, assigned: true });
	}
	const fallbackRow = events.find((e) => e.id === DEFAULT_EVENT_ID);
	const fallback = fallbackRow ? { id: fallbackRow.id, name: fallbackRow.name, assigned: false } : null;
	return { live, fallback };
}

/** Open sessions are few (one per kiosk at most), so they are read first and matched to their kiosks. */
async function openSessionsOf(db: Db): Promise<Map<number, NonNullable<KioskRow['session']>>> {
	const open = await db.session.findMany({
		where: { status: { in: [...OPEN_STATUSES] } },
		select: { sessionToken: true, status: true, createdAt: true, updatedAt: true }
	});
	const owners = await db.kioskSession.findMany({
		where: { sessionToken: { in: open.map((s) => s.sessionToken) } },
		select: { sessionToken: true, kioskId: true }
	});
	const byKiosk = new Map<number, NonNullable<KioskRow['session']>>();
	for (const owner of owners) {
		const session = open.find((s) => s.sessionToken === owner.sessionToken)!;
		const known = byKiosk.get(owner.kioskId);
		if (known && known.startedAt > session.createdAt) continue;
		byKiosk.set(owner.kioskId, {
			status: session.status as OpenStatus,
			startedAt: session.createdAt,
			changedAt: session.updatedAt
		});
	}
	return byKiosk;
}

/**
 * The link the Add dialog's QR code holds. The key rides in the fragment (#), which browsers never
 * send to a server: it stays out of access logs, proxies and Referer headers. The kiosk page
 * reads it once, saves it as a typed-in key, and removes it from the address bar.
 */
export function pairingLink(publicBaseUrl: string, key: string): string {
	return `${publicBaseUrl}/kiosk#pair=${encodeURIComponent(key)}`;
}

/** SVG from the same qrcode package the kiosk's guest QR uses. */
export function pairingQrSvg(link: string): Promise<string> {
	return QRCode.toString(link, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
}

/**
 * The page's own change feed: kiosks (added, renamed, revoked, last seen), their events, open
 * sessions and the staff PIN setting. Kept out of the console's shared feed, whose watchers would
 * otherwise re-read their snapshots on every kiosk heartbeat.
 */
const KIOSKS_MARKER_SQL = `SELECT
	(SELECT count(*) || ':' || coalesce(max(last_seen_at), '') || ':' || count(revoked_at) FROM kiosks) || '|' ||
	(SELECT coalesce(max(id), 0) FROM audit_log) || '|' ||
	(SELECT count(*) || ':' || coalesce(max(updated_at), '') FROM sessions) || '|' ||
	(SELECT count(*) || ':' || coalesce(max(updated_at), '') FROM events) || '|' ||
	(SELECT count(*) FROM event_kiosks) || '|' ||
	(SELECT count(*) || ':' || coalesce(max(updated_at), '') FROM settings) AS marker`;

export const kiosksChangeFeed = markerFeeds(() => KIOSKS_MARKER_SQL);
