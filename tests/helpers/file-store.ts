import type { FileStore } from '../../src/lib/server/files/file-store.ts';
import { LocalFileStore } from '../../src/lib/server/files/local-file-store.ts';

/**
 * The file store a test hands to the code it drives: the folder store on the test's own data dir.
 * Production code never picks a store itself (each process opens one with openFileStore at start),
 * so a test passes one explicitly, like the process would.
 */
export function localFileStore(dataDir: string): FileStore {
	return new LocalFileStore(dataDir);
}
