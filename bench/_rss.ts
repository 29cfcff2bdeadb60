import { readFileSync } from 'node:fs';

/** Resident set as the kernel counts it (what a memory limit would see), in MB; 0 once the process is gone. */
export function rssMb(pid: number | undefined): number {
	if (pid === undefined) return 0;
	try {
		const line = readFileSync(`/proc/${pid}/status`, 'utf8')
			.split('\n')
			.find((l) => l.startsWith('VmRSS:'));
		return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024;
	} catch {
		return 0;
	}
}
