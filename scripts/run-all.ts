import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, getConfig, type Config } from '../src/lib/server/config/config.ts';
import { humanLogLine } from '../src/lib/server/log/human-line.ts';
import { firstRunSecretsPath } from '../src/lib/server/system/first-run-secrets.ts';
import { ADAPTER_BODY_SIZE_LIMIT } from '../src/lib/server/web/body-limit.ts';
import { bundleNodeArgs } from '../src/lib/server/config/node-bundles.ts';
import { buildBundlesOrExit } from './build-bundles.ts';

/**
 * Starts the product's processes side by side — the Telegram emulator (only when no bot token is
 * configured), the worker and the web server — prefixes their output, shows the secrets of a first
 * start on this terminal (their JSON log lines in a short human form: log/human-line.ts), and stops them all on Ctrl-C or when one of them exits: web and worker
 * first, the emulator once the worker is gone (a worker whose Telegram vanished under its long
 * poll cannot confirm its updates). In production systemd runs web and worker instead (deploy/).
 */
/**
 * glibc keeps one malloc arena per thread and rarely returns freed image buffers from them; sharp's
 * docs advise two arenas for processes that decode images. Measured with the web's photo upload
 * (bench/guest-face-check-memory.ts): idle RSS after 12 MP selfies about 40% lower (443 → 268 MB on our 2-core box). The systemd
 * units set the same value.
 */
const IMAGE_PROCESS_MALLOC_ARENAS = '2';

interface Service {
	name: string;
	args: string[];
	env: NodeJS.ProcessEnv;
}

function plan(config: Config): Service[] {
	// DB_PATH only on SQLite: next to DATABASE_URL the processes would refuse to start.
	const database = config.database.engine === 'sqlite' ? { DB_PATH: config.dbPath } : {};
	const base = {
		...process.env,
		...database,
		DATA_DIR: config.dataDir,
		MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? IMAGE_PROCESS_MALLOC_ARENAS
	};
	const services: Service[] = [];
	if (config.telegram.mode === 'emulator') {
		services.push({
			name: 'telegram',
			args: ['--import', 'tsx', 'tools/telegram-emulator/main.ts'],
			// EMULATOR_SUPERVISED: it ignores the terminal's Ctrl-C and waits for our SIGTERM.
			env: {
				...base,
				EMULATOR_PORT: String(config.EMULATOR_PORT),
				EMULATOR_STATE: path.join(config.dataDir, 'telegram-emulator', 'state.json'),
				EMULATOR_SUPERVISED: '1'
			}
		});
	}
	services.push({ name: 'worker', args: bundleNodeArgs(config.projectRoot, 'worker'), env: base });
	services.push({
		name: 'web',
		args: ['build/index.js'],
		// adapter-node reads these: our public origin (for CSRF checks and links), the bind address
		// and the body limit (web/body-limit.ts).
		env: {
			...base,
			PORT: String(config.PORT),
			HOST: config.HOST,
			ORIGIN: config.publicBaseUrl,
			BODY_SIZE_LIMIT: ADAPTER_BODY_SIZE_LIMIT
		}
	});
	return services;
}

function start(service: Service, onExit: (code: number | null) => void): ChildProcess {
	const child = spawn(process.execPath, service.args, { env: service.env, stdio: ['ignore', 'pipe', 'pipe'] });
	const prefix = `${service.name.padEnd(8)}│ `;
	for (const stream of [child.stdout, child.stderr]) {
		stream?.on('data', (chunk: Buffer) => {
			for (const line of chunk.toString().split('\n'))
				if (line.trim()) process.stdout.write(`${prefix}${humanLogLine(line)}\n`);
		});
	}
	child.on('exit', onExit);
	return child;
}

async function main(): Promise<void> {
	let config: Config;
	try {
		config = getConfig();
	} catch (error) {
		console.error(error instanceof ConfigError ? error.message : error);
		process.exit(1);
	}
	if (!existsSync(path.join(config.projectRoot, 'build', 'index.js'))) {
		console.error('build/ is missing: run `npm start` (it builds) or `npm run build` first');
		process.exit(1);
	}
	// The worker and the web's upload checker run from their bundles (scripts/build-bundles.ts), made
	// from the sources at every start: a few tenths of a second, and never older than the code.
	await buildBundlesOrExit(config.projectRoot);
	const children = new Map<string, ChildProcess>();
	let stopping = false;
	const stopAll = async (code: number) => {
		if (stopping) return;
		stopping = true;
		setTimeout(() => process.exit(code), 30_000).unref();
		const emulator = children.get('telegram');
		const others = [...children.values()].filter((child) => child !== emulator);
		for (const child of others) child.kill('SIGTERM');
		await allExited(others);
		emulator?.kill('SIGTERM');
		await allExited([...children.values()]);
		process.exit(code);
	};
	for (const service of plan(config)) {
		children.set(
			service.name,
			start(service, (code) => {
				if (!stopping) console.error(`${service.name} exited (code ${code}); stopping everything`);
				void stopAll(code === 0 ? 0 : 1);
			})
		);
	}
	printWelcome(config);
	showFirstRunSecrets(firstRunSecretsPath(config.dataDir));
	process.on('SIGINT', () => void stopAll(0));
	process.on('SIGTERM', () => void stopAll(0));
}

function allExited(children: ChildProcess[]): Promise<void> {
	const exited = () => children.every((child) => child.exitCode !== null || child.signalCode !== null);
	return new Promise((resolve) => {
		const check = () => (exited() ? resolve() : setTimeout(check, 50));
		check();
	});
}

/**
 * The web process keeps a first start's secrets (kiosk key, console setup link) out of its log
 * and appends them to a file of mode 600; what appears there while we run is shown here, on the
 * terminal of the person who started the product.
 */
function showFirstRunSecrets(file: string): void {
	const read = () => {
		try {
			return readFileSync(file);
		} catch {
			return Buffer.alloc(0); // not written (yet)
		}
	};
	let shown = read().length;
	setInterval(() => {
		const text = read();
		if (text.length <= shown) return void (shown = text.length);
		const notes = text
			.subarray(shown)
			.toString('utf8')
			.split('\n')
			.filter((line) => line.trim() !== '' && !line.startsWith('#'));
		shown = text.length;
		if (notes.length > 0)
			console.log(`\n${notes.join('\n')}\n(kept in ${file}, mode 600: delete it once you have these)\n`);
	}, 250).unref();
}

function printWelcome(config: Config): void {
	const lines = [
		`Sticker kiosk is starting at ${config.publicBaseUrl}`,
		`  start:    ${config.publicBaseUrl}/start (links to everything, live status)`,
		`  kiosk:    ${config.publicBaseUrl}/kiosk (first run: enter the kiosk key shown below)`,
		`  console:  ${config.publicBaseUrl}/console (first run: open the setup link shown below)`,
		`  landing:  ${config.publicBaseUrl}/`,
		config.telegram.mode === 'emulator'
			? `  telegram: emulator at http://localhost:${config.EMULATOR_PORT}/ (no TELEGRAM_BOT_TOKEN set)`
			: `  telegram: ${config.telegram.apiRoot}`,
		`  images:   ${config.IMAGE_PROVIDER} provider · data in ${config.dataDir}`,
		'Press Ctrl-C to stop.'
	];
	console.log(`\n${lines.join('\n')}\n`);
}

void main();
