import type { Db } from '../db/client.ts';
import type { Logger } from '../log/logger.ts';
import type { TelegramApi } from './api.ts';

/** What alerting the admins takes (the callers' notice deps, the database among them). */
export interface NoticeDeps {
	db: Db;
	api: Pick<TelegramApi, 'sendMessage'>;
	logger: Logger;
}

/** Messages to every admin id; one failing admin does not stop the others. */
export async function alertAdmins(deps: NoticeDeps, adminIds: readonly bigint[], text: string): Promise<void> {
	for (const id of adminIds) {
		await deps.api.sendMessage(Number(id), text).catch((error: unknown) => deps.logger.warn({ err: error }, 'could not alert an admin'));
	}
}
