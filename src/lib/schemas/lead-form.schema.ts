import { z } from 'zod';
import { checkLeadFields, type LeadFormErrors, type LeadFormInput } from './lead-form.ts';

/**
 * The server's edge check of a landing submission: the browser's rules (lead-form.ts) plus
 * types and lengths of the hidden fields. Field problems come back as error keys per field.
 */
const optionalText = z
	.string()
	.optional()
	.transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

const hidden = (max: number) => optionalText.pipe(z.string().max(max).optional());

export const leadSubmissionSchema = z.object({
	requestId: z.uuid(),
	name: z.string().trim(),
	telegram: optionalText,
	phone: optionalText,
	eventDate: optionalText,
	guests: optionalText,
	comment: optionalText,
	submittedAt: hidden(40),
	utm: hidden(500),
	utmSource: hidden(100),
	utmMedium: hidden(100),
	utmCampaign: hidden(100)
});

export type LeadSubmission = z.output<typeof leadSubmissionSchema>;

export function parseLeadSubmission(
	input: LeadFormInput
): { ok: true; submission: LeadSubmission } | { ok: false; errors: LeadFormErrors } {
	const errors = checkLeadFields(input);
	const parsed = leadSubmissionSchema.safeParse(input);
	if (!parsed.success && parsed.error.issues.some((issue) => issue.path[0] === 'requestId'))
		errors.requestId = 'badRequestId';
	if (Object.keys(errors).length > 0 || !parsed.success)
		return { ok: false, errors: Object.keys(errors).length ? errors : { requestId: 'badRequestId' } };
	return { ok: true, submission: parsed.data };
}
