import { ChangeFeed } from '../console/change-feed.ts';
import type { Db } from '../db/client.ts';
import type { Logger } from '../log/logger.ts';

/**
 * The Messages page's own change marker: the console's shared marker does not watch the message
 * tables, and messages are written far more often than anything it watches — a separate feed keeps
 * the other pages from re-reading on every chat line.
 */
const MESSAGE_MARKER_SQL = `SELECT (SELECT ifnull(max(id), 0) || ':' || count(*) FROM bot_messages) || '|' ||
	(SELECT count(*) || ':' || total(incoming) || ':' || total(outgoing) || ':' || total(guests) FROM message_activity) AS marker`;

const feeds = new WeakMap<Db, ChangeFeed>();

export function messageFeedFor(db: Db, logger?: Logger): ChangeFeed {
	let feed = feeds.get(db);
	if (!feed) {
		const read = async () => (await db.$queryRawUnsafe<{ marker: string }[]>(MESSAGE_MARKER_SQL))[0]?.marker ?? '';
		feeds.set(db, (feed = new ChangeFeed(read, 1000, logger)));
	}
	return feed;
}
