import type { Api } from 'grammy';

/** Telegram's one answer to a second answer, or to one after the query's lifetime. */
const ALREADY_ANSWERED = /query is too old|query ID is invalid/i;

/**
 * Answering a button press only stops the spinner on the person's button. Telegram refuses a
 * second answer, and one after the query's lifetime, with 400 "query is too old and response
 * timeout expired or query ID is invalid" — which a press gets when it is handled again after a
 * worker died half-way (having answered it) or waited through an updates-lease handover. That
 * refusal must not stop the step the press asked for, so it counts as answered.
 */
export function tolerateLateCallbackAnswers(api: Api): void {
	api.config.use(async (prev, method, payload, signal) => {
		const response = await prev(method, payload, signal);
		if (
			method !== 'answerCallbackQuery' ||
			response.ok ||
			response.error_code !== 400 ||
			!ALREADY_ANSWERED.test(response.description)
		)
			return response;
		return { ok: true, result: true } as unknown as typeof response;
	});
}
