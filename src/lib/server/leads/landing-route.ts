import { randomUUID } from 'node:crypto';
import { fail, type RequestEvent } from '@sveltejs/kit';
import type { Locale } from '../../i18n/locale.ts';
import { landingTexts } from '../../i18n/landing.ts';
import { ipSaltFor } from '../privacy/ip-hash.ts';
import type { AppContext } from '../web/app-context.ts';
import { readUtm, submitLandingForm } from './landing-submission.ts';

/** What "/" and "/[lang]" share: the page data and the form action. Routes stay glue. */
export function loadLandingPage(locale: Locale, url: URL) {
	return {
		locale,
		texts: landingTexts(locale),
		// Made on the server, so a retry or a double click — with JS or without — carries the same id.
		requestId: randomUUID(),
		utm: readUtm(url)
	};
}

export async function runLandingAction(app: AppContext, event: RequestEvent, locale: Locale) {
	const data = await event.request.formData();
	const outcome = await submitLandingForm(
		{ ...app, ipSalt: ipSaltFor(app.config) },
		data,
		locale,
		event.getClientAddress()
	);
	switch (outcome.status) {
		case 'received':
			return { status: 'received' as const };
		case 'invalid':
			return fail(400, outcome);
		case 'rate_limited':
			return fail(429, outcome);
		case 'unavailable':
			return fail(503, outcome);
	}
}
