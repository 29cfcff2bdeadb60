/**
 * What `promise` settles to, or 'late' once `ms` have passed first. The timer is cleared either way,
 * so a wait that ended in time leaves nothing running behind it (a stopping process, or a test file
 * whose next file shares its process: tests/helpers/file-handles.ts fails a file that leaves one).
 */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | 'late'> {
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
	try {
		return await Promise.race([promise, late]);
	} finally {
		clearTimeout(timer);
	}
}
