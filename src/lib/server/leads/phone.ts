import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** Organisers mostly write local numbers ("90 123 45 67"): Uzbekistan is the default region. */
export const DEFAULT_PHONE_REGION = 'UZ';

/** The phone in E.164 ("+998901234567"), or null when it is not a valid number anywhere. */
export function normalisePhone(raw: string): string | null {
	const parsed = parsePhoneNumberFromString(raw.trim(), DEFAULT_PHONE_REGION);
	return parsed?.isValid() ? parsed.number : null;
}
