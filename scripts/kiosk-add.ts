import { ConfigError, getConfig } from '../src/lib/server/config/config.ts';
import { prepareDatabase } from '../src/lib/server/db/startup.ts';
import { MigrationError } from '../src/lib/server/db/migrations/safe-migrate.ts';
import { createKiosk } from '../src/lib/server/kiosk/kiosk-keys.ts';
import { createLogger } from '../src/lib/server/log/logger.ts';
import { systemClock } from '../src/lib/server/time/clock.ts';

// Registers a kiosk and prints its key once (only the key's SHA-256 is stored):
//   node --import tsx scripts/kiosk-add.ts <name>        (npm run kiosk:add -- <name>)
// With --json the output is {"name":…,"key":…} for scripts and tests.
const args = process.argv.slice(2);
const json = args.includes('--json');
const name = args.find((a) => !a.startsWith('--'))?.trim();
if (!name || !/^[\p{L}\p{N}_ .-]{1,60}$/u.test(name)) {
	console.error('usage: node --import tsx scripts/kiosk-add.ts <name>   (letters, digits, space, _ . -; at most 60)');
	process.exit(2);
}
try {
	const config = getConfig();
	const db = await prepareDatabase(config, systemClock, createLogger('kiosk-add', 'warn'));
	const existing = await db.kiosk.findUnique({ where: { name } });
	if (existing) {
		console.error(`a kiosk named "${name}" exists already; choose another name`);
		await db.$disconnect();
		process.exit(1);
	}
	const { kiosk, key } = await createKiosk(db, systemClock, name);
	await db.$disconnect();
	if (json) console.log(JSON.stringify({ name: kiosk.name, key }));
	else console.log(`Kiosk "${kiosk.name}" registered.\nKey (shown only now — enter it once on the kiosk page): ${key}`);
} catch (error) {
	console.error(error instanceof ConfigError || error instanceof MigrationError ? error.message : `could not register the kiosk: ${(error as Error).message}`);
	process.exit(1);
}
