import { backoffDelayMs } from '../../lib/server/leads/backoff.ts';
import { requestCardEdit } from '../../lib/server/leads/lead-card-edits.repository.ts';
import { claimRepeatToNotify, recordRepeatFailure, recordRepeatNotified, type RepeatWithLead } from '../../lib/server/leads/lead-outbox.repository.ts';
import { leadText, type LeadTextKey } from '../../lib/i18n/leads.ts';
import { noteFloodControl } from '../../lib/server/telegram/flood-control.ts';
import { leadTag } from '../../lib/server/telegram/lead-card.ts';
import { refreshLeadCardNow } from '../../lib/server/leads/lead-card-edit-outbox.ts';
import { OUTBOX_LEASE_MS } from '../../lib/server/telegram/outbox-api.ts';
import type { LeadsTaskDeps } from './leads-deps.ts';
import { errorText } from '../../lib/server/errors/error-text.ts';

/**
 * The repeat outbox: a repeat contact pings the card (a reply listing what differs) and the card
 * is re-rendered with the repeat count. A ping that keeps failing is given up after
 * MAX_NOTIFY_ATTEMPTS (notified_at set, notify_error says why): the card still shows the repeat.
 */
const PINGS_PER_PASS = 10;
export const MAX_NOTIFY_ATTEMPTS = 10;

export async function notifyPendingRepeats(deps: LeadsTaskDeps): Promise<number> {
	let pinged = 0;
	for (let i = 0; i < PINGS_PER_PASS; i++) {
		const repeat = await claimRepeatToNotify(deps.db, deps.clock.now(), OUTBOX_LEASE_MS);
		if (!repeat) break;
		const result = await notifyRepeat(deps, repeat);
		if (result === 'stop') break;
		if (result === 'sent') pinged++;
	}
	return pinged;
}

async function notifyRepeat(deps: LeadsTaskDeps, repeat: RepeatWithLead): Promise<'sent' | 'skipped' | 'stop'> {
	const { lead } = repeat;
	if (lead.erasedAt) {
		await recordRepeatNotified(deps.db, repeat.id, deps.clock.now(), 'no ping: the lead was erased');
		return 'skipped';
	}
	const chatId = lead.chatId as bigint;
	if (deps.cooldown.isCooling(chatId, deps.clock.now())) {
		await recordRepeatFailure(deps.db, repeat.id, 'waiting for Telegram flood control', deps.clock.now());
		return 'stop';
	}
	let ping: { message_id: number };
	try {
		ping = await deps.api.sendMessage(Number(chatId), describeRepeatPing(deps, repeat), {
			reply_parameters: { message_id: Number(lead.messageId), allow_sending_without_reply: true }
		});
	} catch (error) {
		await recordPingFailure(deps, repeat, chatId, error);
		return 'stop';
	}
	const now = deps.clock.now();
	// The ping's id is kept so an erasure can edit it; the card edit asked for here also scrubs a
	// ping sent while the lead was being erased (the edit sees erased_at and this id).
	await deps.db.$transaction(async (tx) => {
		await recordRepeatNotified(tx, repeat.id, now, null, BigInt(ping.message_id));
		await requestCardEdit(tx, lead.id, now);
	});
	await refreshLeadCardNow(deps, lead.id).catch((error: unknown) => deps.logger.warn({ err: error, leadId: lead.id }, 'card refresh after a repeat failed; the edit stays queued'));
	return 'sent';
}

export function describeRepeatPing(deps: Pick<LeadsTaskDeps, 'locale'>, repeat: RepeatWithLead): string {
	const t = (key: LeadTextKey) => leadText(deps.locale, key);
	const lines = [`🔁 ${t('repeatPing')} ${leadTag(repeat.leadId)}`];
	const add = (label: string, value: string | null) => {
		if (value) lines.push(`${label}: ${value}`);
	};
	add(t('telegram'), repeat.telegram);
	add(t('phone'), repeat.phone);
	add(t('eventDate'), repeat.eventDate);
	add(t('guests'), repeat.guests);
	add(t('comment'), repeat.comment);
	if (lines.length === 1) lines.push(t('repeatSame'));
	add(t('language'), repeat.locale);
	add(t('source'), repeat.utmSource);
	return lines.join('\n');
}

async function recordPingFailure(deps: LeadsTaskDeps, repeat: RepeatWithLead, chatId: bigint, error: unknown): Promise<void> {
	const attempts = repeat.notifyAttempts + 1;
	if (attempts >= MAX_NOTIFY_ATTEMPTS) {
		await recordRepeatNotified(deps.db, repeat.id, deps.clock.now(), `gave up after ${attempts} attempts: ${errorText(error, 240)}`);
		deps.logger.warn({ repeatId: repeat.id, leadId: repeat.leadId }, 'repeat ping given up');
		return;
	}
	const wait = noteFloodControl(deps, chatId, error);
	const retryAt = new Date(deps.clock.now().getTime() + backoffDelayMs(attempts, wait, deps.random));
	await recordRepeatFailure(deps.db, repeat.id, errorText(error), retryAt);
}
