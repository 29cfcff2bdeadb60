import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/node-process.ts';

// deploy/ checked with the real tools (tests/deploy/check-deploy.sh installs them from Debian when
// missing). Skipped only where there is no apt-get to install them — with that reason.
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0;
const haveTools = ['shellcheck', 'caddy', 'systemd-analyze', 'logrotate'].every((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0);

describe('deploy/: units, Caddy site, scripts', () => {
	it.skipIf(!hasApt && !haveTools)(
		'shellcheck, systemd-analyze verify, caddy validate and a live Caddy, caddy.sh table, logrotate — all pass (skipped only when apt-get is unavailable to install the tools)',
		() => {
			const run = spawnSync('bash', [path.join(PROJECT_ROOT, 'tests/deploy/check-deploy.sh')], { encoding: 'utf8', timeout: 540_000 });
			const output = `${run.stdout}${run.stderr}`;
			expect(output, output).toMatch(/deploy checks: PASS \(\d+ passed, 0 failed\)/);
			expect(run.status, output).toBe(0);
		},
		600_000
	);
});
