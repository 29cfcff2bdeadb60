/**
 * The landing form's rules, as plain functions: the page checks fields inline with them (no zod
 * in the browser bundle — the page has a 50 KB budget) and the server's zod schema
 * (lead-form.schema.ts) applies the same rules. Messages are keys (`errors.<key>` in the landing
 * texts), never sentences, so each visitor reads them in their own language.
 * The phone is only checked for plausibility here; the server normalises it to E.164.
 */
/** The fields a visitor fills in, in the form's order. */
export const LEAD_FIELDS = ['name', 'telegram', 'phone', 'eventDate', 'guests', 'comment'] as const;
export type LeadField = (typeof LEAD_FIELDS)[number];

export const LEAD_FIELD_LIMITS = {
	name: 100,
	telegram: 33,
	phone: 32,
	eventDate: 100,
	guests: 50,
	comment: 2000
} as const satisfies Record<LeadField, number>;

export type LeadFormErrors = Partial<Record<LeadField | 'requestId', string>>;

/**
 * A landing submission, field by field (FormData names in snake_case on the wire): raw text as
 * the visitor typed it here, checked and normalised by the time a lead row is made of it.
 */
export interface LeadFormInput {
	requestId: string;
	name: string;
	telegram?: string;
	phone?: string;
	eventDate?: string;
	guests?: string;
	comment?: string;
	submittedAt?: string;
	utm?: string;
	utmSource?: string;
	utmMedium?: string;
	utmCampaign?: string;
}

const TELEGRAM_USERNAME = /^@?[a-zA-Z][a-zA-Z0-9_]{3,31}$/;
const PHONE_CHARS = /^\+?[\d\s().-]{7,}$/;

export function countDigits(value: string): number {
	return value.replace(/\D/g, '').length;
}

export function isPlausiblePhone(value: string): boolean {
	const digits = countDigits(value);
	return PHONE_CHARS.test(value) && digits >= 7 && digits <= 15;
}

export function isTelegramUsername(value: string): boolean {
	return TELEGRAM_USERNAME.test(value);
}

/** "@Name" whatever the visitor typed ("name", "@name", "t.me/name" is not accepted). */
export function normaliseTelegram(value: string): string {
	return `@${value.trim().replace(/^@/, '')}`;
}

/** The first problem of one field, or null. `other` gives the contact rule its second field. */
export function checkLeadField(
	field: LeadField,
	value: string,
	other: { telegram?: string; phone?: string } = {}
): string | null {
	const text = value.trim();
	if (text.length > LEAD_FIELD_LIMITS[field]) return 'tooLong';
	if (field === 'name' && text === '') return 'nameRequired';
	if (field === 'telegram' && text !== '' && !isTelegramUsername(text)) return 'telegramInvalid';
	if (field === 'phone' && text !== '' && !isPlausiblePhone(text)) return 'phoneInvalid';
	// A lead nobody can answer is useless: at least one way to reach the organiser.
	if (field === 'phone' && text === '' && !(other.telegram ?? '').trim()) return 'contactRequired';
	return null;
}

/** Every field's first problem (empty when the form may be sent). */
export function checkLeadFields(input: LeadFormInput): LeadFormErrors {
	const errors: LeadFormErrors = {};
	for (const field of LEAD_FIELDS) {
		const problem = checkLeadField(field, input[field] ?? '', input);
		if (problem) errors[field] = problem;
	}
	return errors;
}

/** Reads a submission's fields (the same names with JS and without). */
export function readLeadForm(data: FormData): LeadFormInput {
	const text = (key: string) => {
		const value = data.get(key);
		return typeof value === 'string' ? value : undefined;
	};
	return {
		requestId: text('request_id') ?? '',
		name: text('name') ?? '',
		telegram: text('telegram'),
		phone: text('phone'),
		eventDate: text('event_date'),
		guests: text('guests'),
		comment: text('comment'),
		submittedAt: text('submitted_at'),
		utm: text('utm'),
		utmSource: text('utm_source'),
		utmMedium: text('utm_medium'),
		utmCampaign: text('utm_campaign')
	};
}
