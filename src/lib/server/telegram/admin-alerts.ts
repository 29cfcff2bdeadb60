import type { Db } from '../db/client.ts';
import type { Logger } from '../log/logger.ts';
import type { TelegramApi } from './api.ts';
import type { SendPacing } from './send-budget-api.ts';

/** What alerting the admins takes. */
export interface NoticeDeps {
	db: Db;
	/** A client without the budget's transformer (the notices' own): alertAdmins takes each place itself. */
	api: Pick<TelegramApi, 'sendMessage'>;
	logger: Logger;
	/** The bot's one send budget: an alert is a message like any other (guest lane). */
	pacing: SendPacing;
}

/** Messages to every admin id, each after its place in the send budget; one failing admin does not stop the others. */
export async function alertAdmins(deps: NoticeDeps, adminIds: readonly bigint[], text: string): Promise<void> {
	for (const id of adminIds) {
		await deps.pacing.budget
			.sendInPlace(id, deps.pacing.sleep, () => deps.api.sendMessage(Number(id), text))
			.catch((error: unknown) => deps.logger.warn({ err: error }, 'could not alert an admin'));
	}
}
