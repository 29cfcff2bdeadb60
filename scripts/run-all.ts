import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, getConfig, type Config } from '../src/lib/server/config/config.ts';
import { ADAPTER_BODY_SIZE_LIMIT } from '../src/lib/server/web/body-limit.ts';

/**
 * Starts the product's processes side by side — the Telegram emulator (only when no bot token is
 * configured), the worker and the web server — prefixes their output, and stops them all together
 * on Ctrl-C or when one of them exits. In production systemd runs web and worker instead (deploy/).
 */
interface Service {
	name: string;
	args: string[];
	env: NodeJS.ProcessEnv;
}

function plan(config: Config): Service[] {
	const base = { ...process.env, DB_PATH: config.dbPath, DATA_DIR: config.dataDir };
	const services: Service[] = [];
	if (config.telegram.mode === 'emulator') {
		services.push({
			name: 'telegram',
			args: ['--import', 'tsx', 'tools/telegram-emulator/main.ts'],
			env: { ...base, EMULATOR_PORT: String(config.EMULATOR_PORT), EMULATOR_STATE: path.join(config.dataDir, 'telegram-emulator', 'state.json') }
		});
	}
	services.push({ name: 'worker', args: ['--import', 'tsx', 'src/worker/main.ts'], env: base });
	services.push({
		name: 'web',
		args: ['build/index.js'],
		// adapter-node reads these: our public origin (for CSRF checks and links), the bind address
		// and the body limit (web/body-limit.ts).
		env: { ...base, PORT: String(config.PORT), HOST: config.HOST, ORIGIN: config.publicBaseUrl, BODY_SIZE_LIMIT: ADAPTER_BODY_SIZE_LIMIT }
	});
	return services;
}

function start(service: Service, onExit: (code: number | null) => void): ChildProcess {
	const child = spawn(process.execPath, service.args, { env: service.env, stdio: ['ignore', 'pipe', 'pipe'] });
	const prefix = `${service.name.padEnd(8)}│ `;
	for (const stream of [child.stdout, child.stderr]) {
		stream?.on('data', (chunk: Buffer) => {
			for (const line of chunk.toString().split('\n')) if (line.trim()) process.stdout.write(`${prefix}${line}\n`);
		});
	}
	child.on('exit', onExit);
	return child;
}

function main(): void {
	let config: Config;
	try {
		config = getConfig();
	} catch (error) {
		console.error(error instanceof ConfigError ? error.message : error);
		process.exit(1);
	}
	if (!existsSync(path.join(config.projectRoot, 'build', 'index.js'))) {
		console.error('build/ is missing: run `npm start` (it builds) or `npx vite build` first');
		process.exit(1);
	}
	const children = new Map<string, ChildProcess>();
	let stopping = false;
	const stopAll = (code: number) => {
		if (stopping) return;
		stopping = true;
		for (const child of children.values()) child.kill('SIGTERM');
		setTimeout(() => process.exit(code), 30_000).unref();
		const wait = () => ([...children.values()].every((c) => c.exitCode !== null || c.signalCode !== null) ? process.exit(code) : setTimeout(wait, 100));
		wait();
	};
	for (const service of plan(config)) {
		children.set(service.name, start(service, (code) => {
			if (!stopping) console.error(`${service.name} exited (code ${code}); stopping everything`);
			stopAll(code === 0 ? 0 : 1);
		}));
	}
	printWelcome(config);
	process.on('SIGINT', () => stopAll(0));
	process.on('SIGTERM', () => stopAll(0));
}

function printWelcome(config: Config): void {
	const lines = [
		`Sticker kiosk is starting at ${config.publicBaseUrl}`,
		`  start:    ${config.publicBaseUrl}/start (links to everything, live status)`,
		`  kiosk:    ${config.publicBaseUrl}/kiosk (first run: enter the kiosk key printed below)`,
		`  console:  ${config.publicBaseUrl}/console (first run: open the setup link printed below)`,
		`  landing:  ${config.publicBaseUrl}/`,
		config.telegram.mode === 'emulator'
			? `  telegram: emulator at http://localhost:${config.EMULATOR_PORT}/ (no TELEGRAM_BOT_TOKEN set)`
			: `  telegram: ${config.telegram.apiRoot}`,
		`  images:   ${config.IMAGE_PROVIDER} provider · data in ${config.dataDir}`,
		'Press Ctrl-C to stop.'
	];
	console.log(`\n${lines.join('\n')}\n`);
}

main();
