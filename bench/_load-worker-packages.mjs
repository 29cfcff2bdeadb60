// The baseline of bench/web-idle-memory.ts: loads the worker's Telegram and Gemini clients into a
// process at start (node --import), as the web process did while its module graph reached them.
await import('grammy');
await import('@google/genai');
