import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

/** A fresh directory per test, removed afterwards (a fresh SQLite file per test lives in it). */
export function useTempDir(prefix = 'kiosk-test-'): () => string {
	const dirs: string[] = [];
	afterEach(() => {
		for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
	});
	return () => {
		const dir = mkdtempSync(path.join(tmpdir(), prefix));
		dirs.push(dir);
		return dir;
	};
}
