import { z } from 'zod';
import { MAX_CAPTION_CHARS, MAX_TEXT_CHARS, parseBroadcastHtml, type HtmlProblem } from './broadcast-html.ts';

/**
 * What an operator composes: the text (Telegram's HTML subset), the audience (one event, or
 * every event when eventId is null), an optional URL button (https only) and the name of a
 * picture uploaded before (the upload endpoint checks and stores it). The console form and the server
 * validate the same object.
 */
export const BROADCAST_IMAGE_NAME = /^[0-9a-f]{24}\.jpg$/;

export const composeBroadcastInput = z
	.object({
		text: z.string().max(20_000),
		eventId: z.number().int().positive().nullable(),
		/** The stored picture's name, as the upload answered it; null = text only. */
		imageName: z.string().regex(BROADCAST_IMAGE_NAME).nullable().default(null),
		buttonText: z.string().trim().max(64).default(''),
		buttonUrl: z.string().trim().max(2048).default('')
	})
	.superRefine((input, ctx) => {
		const parsed = parseBroadcastHtml(input.text, input.imageName ? MAX_CAPTION_CHARS : MAX_TEXT_CHARS);
		if (!parsed.ok) ctx.addIssue({ code: 'custom', path: ['text'], message: describeHtmlProblem(parsed.problem) });
		if ((input.buttonText === '') !== (input.buttonUrl === '')) {
			ctx.addIssue({ code: 'custom', path: ['buttonUrl'], message: 'A button needs both a label and a link.' });
		} else if (input.buttonUrl !== '' && !isHttpsUrl(input.buttonUrl)) {
			ctx.addIssue({
				code: 'custom',
				path: ['buttonUrl'],
				message: 'The button link must start with https:// and be a full address.'
			});
		}
	});
export type ComposeBroadcastInput = z.input<typeof composeBroadcastInput>;

export function isHttpsUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return url.protocol === 'https:' && url.hostname.includes('.') && !/\s/.test(value);
	} catch {
		return false;
	}
}

/** The console's sentence for each refusal of the text (console texts are English). */
export function describeHtmlProblem(problem: HtmlProblem): string {
	switch (problem.code) {
		case 'empty':
			return 'Write the message first.';
		case 'unknown_tag':
			return `Telegram does not allow the tag <${problem.tag}>. Allowed: b, i, u, s, a, code, pre, blockquote, tg-spoiler.`;
		case 'bad_attribute':
			return `The tag <${problem.tag}> has an attribute Telegram refuses (links need href="https://…").`;
		case 'unbalanced':
			return `The tag <${problem.tag}> is not closed in the right place.`;
		case 'bad_entity':
			return `"${problem.entity}" is not an entity Telegram knows: write & as &amp;.`;
		case 'stray_angle':
			return 'A < or > is not part of a tag: write it as &lt; or &gt;.';
		case 'too_long':
			return `The message is ${problem.length} characters long; Telegram allows ${problem.max}${problem.max === MAX_CAPTION_CHARS ? ' under a picture' : ''}.`;
	}
}

/** When to send: now, or at a moment in the future (ISO text from the browser's datetime field). */
export const scheduleBroadcastInput = z.object({
	id: z.number().int().positive(),
	sendAt: z.iso.datetime({ offset: true }).nullable()
});

export const BROADCAST_STATES = ['draft', 'scheduled', 'sending', 'paused', 'done', 'cancelled'] as const;
export type BroadcastState = (typeof BROADCAST_STATES)[number];

export const RECIPIENT_STATES = ['queued', 'sent', 'failed', 'blocked', 'skipped'] as const;
export type RecipientState = (typeof RECIPIENT_STATES)[number];
