import { readFile } from 'node:fs/promises';
import { createLogger } from '../../src/lib/server/log/logger.ts';
import { SAMPLE_FACE_PATH } from '../../src/lib/server/media/face-detector.ts';
import { ChildUploadChecker } from '../../src/lib/server/media/upload-checker/child-checker.ts';
import { resolveCheckerEntry } from '../../src/lib/server/media/upload-checker/checker-process.ts';
import { PROJECT_ROOT } from './node-process.ts';

/**
 * A stand-in web process for the checker's process tests. `wait` (the default): warms an upload
 * checker up (its log line `upload checker ready` carries the child's pid) and waits to be killed.
 * `check-and-stop`: checks one photo, stops the checker and prints its verdict, then has nothing
 * left to do — the process must end by itself.
 */
const checker = new ChildUploadChecker({
	entry: resolveCheckerEntry(PROJECT_ROOT),
	logger: createLogger('web', 'info')
});
if (process.argv[2] === 'check-and-stop') {
	const check = await checker.check(await readFile(SAMPLE_FACE_PATH));
	await checker.stop();
	console.log(`stopped after ${check.kind}`);
} else {
	checker.warmUp();
	setInterval(() => undefined, 60_000);
}
