import { findProjectRoot } from '../../config/project-root.ts';
import type { Logger } from '../../log/logger.ts';
import { ChildUploadChecker } from './child-checker.ts';
import { resolveCheckerEntry } from './checker-process.ts';
import type { UploadChecker } from './upload-check.ts';

let shared: UploadChecker | undefined;

/**
 * The web process's upload checker, made on first call (the `init` hook calls it, so a missing
 * child entry stops the start with UploadCheckerMissing instead of failing the first guest).
 * Shutting the web process down ends the child; so does the web process's death, because the
 * child exits when its IPC channel closes.
 * The benchmark's baseline (NODE_ENV=test and UPLOAD_CHECK_IN_PROCESS=1) runs the check in the web
 * process itself, as before the child existed, to measure the difference in the same run.
 */
export function sharedUploadChecker(logger: Logger, env: NodeJS.ProcessEnv = process.env): UploadChecker {
	if (shared) return shared;
	if (env.NODE_ENV === 'test' && env.UPLOAD_CHECK_IN_PROCESS === '1') return (shared = inProcessBaseline());
	const checker = new ChildUploadChecker({ entry: resolveCheckerEntry(findProjectRoot()), logger });
	process.once('sveltekit:shutdown', () => void checker.stop());
	process.once('exit', () => checker.kill());
	shared = checker;
	return checker;
}

/** Loaded on first use, so the web process loads sharp and the detector only when the baseline runs. */
function inProcessBaseline(): UploadChecker {
	let loaded: Promise<UploadChecker> | undefined;
	const load = () =>
		(loaded ??= Promise.all([import('./run-upload-check.ts'), import('../face-detector.ts')]).then(([run, detector]) =>
			run.inProcessUploadChecker(detector.getFaceDetector)
		));
	return {
		check: async (photo) => (await load()).check(photo),
		warmUp: () => void load().then((checker) => checker.warmUp())
	};
}
