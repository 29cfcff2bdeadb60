/**
 * One api_usage row as the console shows it (job detail, spend). Shared by the server, which
 * builds it, and the page components, which render it — browser code never imports src/lib/server.
 */
export interface ApiUsageView {
	id: number;
	ts: string;
	stage: string | null;
	kind: string;
	provider: string;
	model: string | null;
	ok: boolean;
	httpStatus: number | null;
	error: string | null;
	images: number;
	promptTokens: number | null;
	outputTokens: number | null;
	imageTokens: number | null;
	thoughtsTokens: number | null;
	resolution: string | null;
	costUsd: number;
}

/** What an image model's HTTP answer meant, for the operator (the code stays in the row's tooltip). */
export function providerAnswerWords(httpStatus: number): string {
	if (httpStatus === 429) return 'the provider said we sent too many requests';
	if (httpStatus === 401 || httpStatus === 403) return 'the provider refused our key';
	if (httpStatus === 404) return 'the provider does not know this model';
	if (httpStatus >= 500) return 'the provider had a fault on its side';
	if (httpStatus >= 400) return 'the provider refused the request';
	return `the provider answered with code ${httpStatus}`;
}
