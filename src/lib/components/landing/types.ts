import type { Locale } from '$lib/i18n/locale';
import type { LandingTexts } from '$lib/i18n/landing';
import type { LeadFormErrors, LeadFormInput } from '$lib/schemas/lead-form';

/** The landing's page data (server load) and form result (action), as the components see them. */
export interface LandingData {
	locale: Locale;
	texts: LandingTexts;
	requestId: string;
	utm: { utm: string; utmSource: string; utmMedium: string; utmCampaign: string };
}

export type LandingFormResult =
	| { status: 'received' }
	| { status: 'invalid'; errors: LeadFormErrors; values: LeadFormInput }
	| { status: 'rate_limited' | 'unavailable'; values: LeadFormInput }
	| null
	| undefined;
