import { createLogger } from '../../src/lib/server/log/logger.ts';
import { ChildUploadChecker } from '../../src/lib/server/media/upload-checker/child-checker.ts';
import { resolveCheckerEntry } from '../../src/lib/server/media/upload-checker/checker-process.ts';
import { PROJECT_ROOT } from './node-process.ts';

/**
 * A stand-in web process for the "no orphan" test: it warms an upload checker up (its log line
 * `upload checker ready` carries the child's pid) and then waits to be killed.
 */
const checker = new ChildUploadChecker({ entry: resolveCheckerEntry(PROJECT_ROOT), logger: createLogger('web', 'info') });
checker.warmUp();
setInterval(() => undefined, 60_000);
