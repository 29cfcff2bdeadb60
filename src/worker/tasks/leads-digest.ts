import type { Locale } from '../../lib/i18n/locale.ts';
import { LEAD_STATUSES } from '../../lib/schemas/lead-status.ts';
import {
	claimDigest,
	readDigestFigures,
	releaseDigest,
	type DigestFigures
} from '../../lib/server/leads/lead-digest.ts';
import { leadText, statusLabel, type LeadTextKey } from '../../lib/i18n/leads.ts';
import { noteFloodControl } from '../../lib/server/telegram/flood-control.ts';
import type { LeadsTaskDeps } from './leads-deps.ts';
import { errorText } from '../../lib/server/errors/error-text.ts';

/** Posts the daily digest once per Tashkent date (settings.stickers_digest_last). */
export async function postDailyDigest(deps: LeadsTaskDeps): Promise<boolean> {
	const chatId = deps.chatId;
	if (chatId === null || deps.cooldown.isCooling(chatId, deps.clock.now())) return false;
	const claim = await claimDigest(deps);
	if (!claim) return false;
	try {
		const figures = await readDigestFigures(deps.db, claim.date);
		await deps.api.sendMessage(Number(chatId), describeDigest(deps.locale, figures));
	} catch (error) {
		noteFloodControl(deps, chatId, error);
		await releaseDigest(deps, claim);
		deps.logger.warn({ date: claim.date, error: errorText(error) }, 'daily digest not sent; will retry');
		return false;
	}
	deps.logger.info({ date: claim.date }, 'daily leads digest posted');
	return true;
}

export function describeDigest(locale: Locale, figures: DigestFigures): string {
	const t = (key: LeadTextKey) => leadText(locale, key);
	const list = (counts: DigestFigures['changes']) =>
		LEAD_STATUSES.filter((s) => counts[s])
			.map((s) => `${statusLabel(locale, s)} ${counts[s]}`)
			.join(' · ') || t('none');
	return [
		`📊 ${t('digestTitle')} ${figures.day}`,
		`${t('digestNew')}: ${figures.newLeads} (${t('digestRepeats')}: ${figures.repeats})`,
		`${t('digestChanges')}: ${list(figures.changes)}`,
		`${t('digestOpen')}: ${list(figures.open)}`,
		`${t('digestWithoutStatus')}: ${figures.withoutStatus}`
	].join('\n');
}
