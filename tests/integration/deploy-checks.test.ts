import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/node-process.ts';

// deploy/ checked with the real tools (tests/deploy/check-deploy.sh installs them from Debian when
// missing). Skipped only where there is no apt-get to install them — with that reason.
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0;
const haveTools = ['shellcheck', 'caddy', 'systemd-analyze', 'logrotate'].every(
	(tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0
);

/** One run of the script for all tests below (it serves a real Caddy; a few seconds). */
let run: { output: string; status: number | null } | undefined;
function deployChecks(): { output: string; status: number | null } {
	if (!run) {
		const result = spawnSync('bash', [path.join(PROJECT_ROOT, 'tests/deploy/check-deploy.sh')], {
			encoding: 'utf8',
			timeout: 540_000
		});
		run = { output: `${result.stdout}${result.stderr}`, status: result.status };
	}
	return run;
}

/** The script's checks named after an issue finding all ran and passed. */
function expectFindingChecks(finding: number, atLeast: number): void {
	const { output } = deployChecks();
	const named = output.split('\n').filter((line) => line.includes(`  finding ${finding}: `));
	expect(named.filter((line) => line.startsWith('PASS')).length, output).toBeGreaterThanOrEqual(atLeast);
	expect(
		named.filter((line) => line.startsWith('FAIL')),
		output
	).toEqual([]);
}

describe.skipIf(!hasApt && !haveTools)(
	'deploy/: units, Caddy site, scripts (skipped only when apt-get is unavailable to install the tools)',
	() => {
		it('shellcheck, systemd-analyze verify, caddy validate and a live Caddy, caddy.sh table, logrotate — all pass', () => {
			const { output, status } = deployChecks();
			expect(output, output).toMatch(/deploy checks: PASS \(\d+ passed, 0 failed\)/);
			expect(status, output).toBe(0);
		}, 600_000);

		it('finding 6: update.sh installs and builds as the deploy user with a private npm home: npm ci --ignore-scripts, a rebuild of the allowed native packages, never npm as root or with HOME=/tmp', () => {
			expectFindingChecks(6, 5);
		}, 600_000);

		it('finding 8: update.sh’s recent log lines never show a kiosk key, a setup link’s token or a bot token', () => {
			expectFindingChecks(8, 1);
		}, 600_000);

		it('finding 13: Caddy’s access log masks visitor addresses, cuts one-time tokens, and rolled files go after 7 days', () => {
			expectFindingChecks(13, 2);
		}, 600_000);
	}
);
