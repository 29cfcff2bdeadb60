import { markerFeeds } from '../console/change-feed.ts';

/**
 * The Messages page's own change marker: the console's shared marker does not watch the message
 * tables, and messages are written far more often than anything it watches — a separate feed keeps
 * the other pages from re-reading on every chat line. Broadcast rows are watched too: a guest's
 * history shows the broadcasts they were sent or skipped (broadcasts/guest-broadcasts.ts).
 */
const MESSAGE_MARKER_SQL = `SELECT (SELECT coalesce(max(id), 0) || ':' || count(*) FROM bot_messages) || '|' ||
	(SELECT count(*) || ':' || coalesce(sum(incoming), 0) || ':' || coalesce(sum(outgoing), 0) || ':' || coalesce(sum(guests), 0) FROM message_activity) || '|' ||
	(SELECT count(*) || ':' || coalesce(max(updated_at), '') FROM broadcast_recipients) AS marker`;

// The same SQL in SQLite and PostgreSQL (coalesce and sum, not ifnull and total).
export const messageFeedFor = markerFeeds(() => MESSAGE_MARKER_SQL);
