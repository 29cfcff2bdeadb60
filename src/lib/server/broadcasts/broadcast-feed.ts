import { markerFeeds } from '../console/change-feed.ts';

/**
 * The Broadcasts pages' own change marker: progress moves with every recipient row the worker
 * records, far more often than anything the console's shared marker watches; the audience count
 * moves with consent, opt-outs and blocks, and the test-send target with the operator's Telegram id.
 */
const BROADCAST_MARKER_SQL = `SELECT (SELECT count(*) || ':' || ifnull(max(updated_at), '') FROM broadcasts) || '|' ||
	(SELECT count(*) || ':' || ifnull(max(updated_at), '') FROM broadcast_recipients) || '|' ||
	(SELECT count(*) || ':' || ifnull(max(opted_out_at), '') FROM broadcast_opt_outs) || '|' ||
	(SELECT count(*) || ':' || count(consented_at) FROM users) || '|' ||
	(SELECT count(*) FROM guest_bot_blocks) || '|' ||
	(SELECT count(*) FROM kiosk_sessions) || '|' ||
	(SELECT ifnull(group_concat(id || '=' || ifnull(telegram_id, '')), '') FROM operators) AS marker`;

export const broadcastFeedFor = markerFeeds(BROADCAST_MARKER_SQL);
