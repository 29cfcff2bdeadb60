import { markerFeeds } from '../console/change-feed.ts';
import type { Dialect } from '../db/dialect/dialect.ts';

/**
 * The Broadcasts pages' own change marker: progress moves with every recipient row the worker
 * records, far more often than anything the console's shared marker watches; the audience count
 * moves with news opt-ins and opt-outs, guests and blocks, and the test-send target with the operator's Telegram id and its proof.
 */
const broadcastMarkerSql = ({
	joinedText
}: Dialect) => `SELECT (SELECT count(*) || ':' || coalesce(max(updated_at), '') FROM broadcasts) || '|' ||
	(SELECT count(*) || ':' || coalesce(max(updated_at), '') FROM broadcast_recipients) || '|' ||
	(SELECT count(*) || ':' || coalesce(max(updated_at), '') FROM news_opt_ins) || '|' ||
	(SELECT count(*) || ':' || count(consented_at) FROM users) || '|' ||
	(SELECT count(*) FROM guest_bot_blocks) || '|' ||
	(SELECT count(*) FROM kiosk_sessions) || '|' ||
	(SELECT coalesce(${joinedText("id || '=' || coalesce(CAST(telegram_id AS TEXT), '') || coalesce(telegram_verified_at, '')")}, '') FROM operators) AS marker`;

export const broadcastFeedFor = markerFeeds(broadcastMarkerSql);
