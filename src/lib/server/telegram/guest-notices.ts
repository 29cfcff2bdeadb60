import { generationText, type GenerationText } from '../../i18n/generation.ts';
import type { Db } from '../db/client.ts';
import { readGuestLanguage } from '../guests/guest-profile.ts';
import type { Logger } from '../log/logger.ts';
import type { TelegramApi } from './api.ts';
import { isNotModified } from './errors.ts';

/**
 * What the worker says to a guest about their job: stage progress as edits of the guest's
 * "Generating…" message (job_messages kind 'generating', written by the guest flow) and new
 * messages for things the guest must notice (delay, failure).
 */
export interface NoticeDeps {
	db: Db;
	api: TelegramApi;
	logger: Logger;
}

const STAGE_TEXTS: Partial<Record<string, GenerationText>> = {
	passport: 'stage_passport',
	anchor: 'stage_anchor',
	anchor_verify: 'stage_anchor',
	sheet: 'stage_sheet',
	cut: 'stage_cut',
	regen: 'stage_sheet',
	heads: 'stage_heads',
	qa: 'stage_qa',
	uploading: 'stage_uploading',
	done: 'stage_done'
};

/** Edits the "Generating…" message to show the stage; a missing message or an unchanged text is fine. */
export async function showStageToGuest(deps: NoticeDeps, jobId: number, telegramUserId: bigint, stage: string): Promise<void> {
	const key = STAGE_TEXTS[stage];
	if (!key) return;
	const message = await deps.db.jobMessage.findUnique({ where: { jobId_kind: { jobId, kind: 'generating' } } });
	if (!message) return;
	const text = generationText(await readGuestLanguage(deps.db, telegramUserId), key);
	try {
		await deps.api.editMessageText(Number(message.chatId), Number(message.messageId), text);
	} catch (error) {
		if (!isNotModified(error)) deps.logger.warn({ err: error, jobId, stage }, 'could not show the stage to the guest');
	}
}

export async function sendGuestNotice(deps: NoticeDeps, telegramUserId: bigint, key: GenerationText): Promise<void> {
	const text = generationText(await readGuestLanguage(deps.db, telegramUserId), key);
	await deps.api.sendMessage(Number(telegramUserId), text);
}

/** Messages to every admin id; one failing admin does not stop the others. */
export async function alertAdmins(deps: NoticeDeps, adminIds: readonly bigint[], text: string): Promise<void> {
	for (const id of adminIds) {
		await deps.api.sendMessage(Number(id), text).catch((error: unknown) => deps.logger.warn({ err: error }, 'could not alert an admin'));
	}
}
