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
