import { markerFeeds } from '../console/change-feed.ts';

/**
 * The Messages page's own change marker: the console's shared marker does not watch the message
 * tables, and messages are written far more often than anything it watches — a separate feed keeps
 * the other pages from re-reading on every chat line.
 */
const MESSAGE_MARKER_SQL = `SELECT (SELECT ifnull(max(id), 0) || ':' || count(*) FROM bot_messages) || '|' ||
	(SELECT count(*) || ':' || total(incoming) || ':' || total(outgoing) || ':' || total(guests) FROM message_activity) AS marker`;

export const messageFeedFor = markerFeeds(MESSAGE_MARKER_SQL);
