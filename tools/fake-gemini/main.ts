import { createFakeGemini } from './server.ts';

// npx tsx tools/fake-gemini/main.ts — a standalone fake Gemini on FAKE_GEMINI_PORT (default 8082);
// FAKE_GEMINI_MODELS (comma-separated) sets which model ids exist; FAKE_GEMINI_LATENCY_MS (default 0)
// delays every generateContent answer by that many milliseconds.
const models = process.env.FAKE_GEMINI_MODELS?.split(',')
	.map((id) => id.trim())
	.filter(Boolean);
const latencyMs = Number(process.env.FAKE_GEMINI_LATENCY_MS ?? 0);
if (!Number.isInteger(latencyMs) || latencyMs < 0)
	throw new Error(
		`FAKE_GEMINI_LATENCY_MS must be a whole number of milliseconds, not ${process.env.FAKE_GEMINI_LATENCY_MS}`
	);
const gemini = await createFakeGemini({
	port: Number(process.env.FAKE_GEMINI_PORT ?? 8082),
	apiKey: process.env.GEMINI_API_KEY,
	latencyMs,
	...(models?.length ? { models } : {})
});
console.log(
	`fake Gemini listening on ${gemini.url} (GEMINI_BASE_URL=${gemini.url})${latencyMs ? `, ${latencyMs} ms per generate call` : ''}`
);
const stop = () => void gemini.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
