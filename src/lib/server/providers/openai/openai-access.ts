/**
 * OpenAI's answers that refuse our access rather than one request: 401 (the key is wrong, revoked,
 * or of another organisation) and 403 (a country OpenAI does not serve, or a model the organisation
 * may not use yet, such as an image model before verification). Every call fails the same way
 * until an operator changes a setting, so the queue pauses (failure `access`, as Gemini's key and
 * permission errors) instead of spending guests' attempts. The sentence says what to change.
 */
export function openAiAccessProblem(status: number, code: string | undefined, message: string): string | undefined {
	const said = message.trim().slice(0, 200);
	if (status === 401)
		return `openai refused the API key (${code ?? 'HTTP 401'}): set OPENAI_API_KEY to a valid key of the organisation that pays for images — ${said}`;
	if (status !== 403) return undefined;
	if (code === 'unsupported_country_region_territory')
		return `openai does not serve this location (${code}): the worker must call from a supported country — ${said}`;
	return `openai denied access (${code ?? 'HTTP 403'}): the key's organisation or project may not use this model — ${said}`;
}
