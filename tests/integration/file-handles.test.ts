import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesLeftRunning } from '../../scripts/test-handles-report.mjs';
import { countByKind, grown, leftAfterSettling } from '../helpers/file-handles.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

describe('what a test file left running (npm test fails such a file)', () => {
	const tempDir = useTempDir('file-handles-');

	it('counts the kinds that grew, and only those', () => {
		const before = countByKind(['Timeout', 'PipeWrap', 'PipeWrap']);
		expect(grown(before, countByKind(['PipeWrap', 'PipeWrap', 'ProcessWrap', 'PipeWrap']))).toEqual({
			ProcessWrap: 1,
			PipeWrap: 1
		});
		expect(grown(before, countByKind(['PipeWrap']))).toEqual({});
	});

	it("sees a listening server in Node's list until it has closed", async () => {
		const before = countByKind(process.getActiveResourcesInfo());
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		expect(grown(before, countByKind(process.getActiveResourcesInfo()))).toMatchObject({ TCPServerWrap: 1 });
		server.close();
		// Closing takes a turn of the event loop or two: the report waits for it.
		expect(await leftAfterSettling(before)).toEqual({});
	});

	it("names each run's files with what they left, as failures, and nothing when none left anything", () => {
		const dir = tempDir();
		mkdirSync(dir, { recursive: true });
		const report = path.join(dir, 'handles.jsonl');
		writeFileSync(
			report,
			JSON.stringify({ file: 'tests/integration/a.test.ts', left: { ProcessWrap: 1, PipeWrap: 2 } }) + '\n'
		);
		expect(filesLeftRunning([{ path: report, run: '[vitest sqlite]' }])).toEqual([
			'[vitest sqlite] tests/integration/a.test.ts\n    left running after its last hook (tests/helpers/file-handles.ts): 1 ProcessWrap, 2 PipeWrap'
		]);
		expect(filesLeftRunning([{ path: path.join(dir, 'absent.jsonl'), run: '[vitest sqlite]' }])).toEqual([]);
	});
});
