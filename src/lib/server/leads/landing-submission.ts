import { parseLeadSubmission } from '../../schemas/lead-form.schema.ts';
import { normaliseTelegram, readLeadForm, type LeadFormErrors, type LeadFormInput } from '../../schemas/lead-form.ts';
import type { Locale } from '../../i18n/locale.ts';
import type { Db } from '../db/client.ts';
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../time/clock.ts';
import { hashClientIp } from '../privacy/ip-hash.ts';
import { receiveLead } from './lead-intake.ts';
import { normalisePhone } from './phone.ts';

/**
 * A landing form post, from FormData to a stored lead — the rule behind the page's form action,
 * kept free of SvelteKit so tests call it directly. The raw IP exists only inside this function
 * long enough to be hashed; it is never stored, logged or returned.
 */
export interface SubmissionDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	ipSalt: string;
}

export type SubmissionOutcome =
	| { status: 'received' }
	| { status: 'invalid'; errors: LeadFormErrors; values: LeadFormInput }
	| { status: 'rate_limited' | 'unavailable'; values: LeadFormInput };

/** The honeypot: invisible to people, filled in by form-spamming bots. */
export const HONEYPOT_FIELD = 'website';

export async function submitLandingForm(
	deps: SubmissionDeps,
	data: FormData,
	locale: Locale,
	clientIp: string
): Promise<SubmissionOutcome> {
	const values = readLeadForm(data);
	if (String(data.get(HONEYPOT_FIELD) ?? '').trim() !== '') {
		deps.logger.info({ reason: 'honeypot' }, 'landing submission dropped');
		return { status: 'received' };
	}
	const parsed = parseLeadSubmission(values);
	if (!parsed.ok) return { status: 'invalid', errors: parsed.errors, values };
	const form = parsed.submission;
	const phone = form.phone === undefined ? undefined : normalisePhone(form.phone);
	if (phone === null) return { status: 'invalid', errors: { phone: 'phoneInvalid' }, values };
	try {
		const result = await receiveLead(deps, {
			...form,
			telegram: form.telegram === undefined ? undefined : normaliseTelegram(form.telegram),
			phone,
			locale,
			ipHash: hashClientIp(clientIp, deps.ipSalt)
		});
		if (result.outcome === 'rate_limited') return { status: 'rate_limited', values };
		deps.logger.info({ leadId: result.leadId, outcome: result.outcome, locale }, 'landing submission stored');
		return { status: 'received' };
	} catch (error) {
		deps.logger.error({ err: error }, 'landing submission could not be stored');
		return { status: 'unavailable', values };
	}
}

/** Hidden UTM fields from the landing URL (?utm_source=…): the raw query and its parts. */
export function readUtm(url: URL): { utm: string; utmSource: string; utmMedium: string; utmCampaign: string } {
	const utmParams = [...url.searchParams.entries()].filter(([key]) => key.startsWith('utm_'));
	const get = (key: string) => (url.searchParams.get(key) ?? '').slice(0, 100);
	return {
		utm: new URLSearchParams(utmParams).toString().slice(0, 500),
		utmSource: get('utm_source'),
		utmMedium: get('utm_medium'),
		utmCampaign: get('utm_campaign')
	};
}
