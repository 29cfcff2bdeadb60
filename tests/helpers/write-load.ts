import { openDatabase } from '../../src/lib/server/db/client.ts';

/**
 * One OS process of the concurrency test: N read-then-write transactions on a shared counter,
 * like the web and worker processes do (read a row, decide, write). Prints a JSON summary.
 * Usage: node --import tsx tests/helpers/write-load.ts <db> <transactions> <label>
 */
const [dbPath, countArg, label] = process.argv.slice(2);
const db = openDatabase(dbPath!);
const total = Number(countArg);
let busy = 0;
let otherErrors = 0;
const waits: number[] = [];

for (let i = 0; i < total; i++) {
	const started = performance.now();
	try {
		await db.$transaction(async (tx) => {
			const row = await tx.setting.findUniqueOrThrow({ where: { key: 'counter' } });
			const at = new Date().toISOString();
			await tx.setting.update({
				where: { key: 'counter' },
				data: { value: String(Number(row.value) + 1), updatedAt: at }
			});
			await tx.auditLog.create({ data: { ts: at, actor: label!, action: 'load_test' } });
		});
	} catch (error) {
		if (/SQLITE_BUSY|database is locked/i.test(String(error))) busy++;
		else otherErrors++;
	}
	waits.push(performance.now() - started);
}
waits.sort((a, b) => a - b);
await db.$disconnect();
console.log(JSON.stringify({ label, done: total, busy, otherErrors, p99Ms: waits[Math.floor(waits.length * 0.99)] }));
