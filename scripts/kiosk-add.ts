import { ZodError } from 'zod';
import { ConfigError, getConfig } from '../src/lib/server/config/config.ts';
import { prepareDatabase } from '../src/lib/server/db/startup.ts';
import { MigrationError } from '../src/lib/server/db/migrations/safe-migrate.ts';
import { DomainError } from '../src/lib/server/errors/domain-error.ts';
import { addKiosk } from '../src/lib/server/kiosk/kiosk-admin.ts';
import { pairingLink } from '../src/lib/server/kiosk/kiosk-console.ts';
import { createLogger } from '../src/lib/server/log/logger.ts';
import { systemClock } from '../src/lib/server/time/clock.ts';
import { consoleSentence } from '../src/lib/server/trpc/domain-error-text.ts';

// Registers a kiosk and prints its key once (only the key's SHA-256 is stored), the same step as
// the console's Kiosks page → Add kiosk (audited as actor "cli:kiosk-add"):
//   node --import tsx scripts/kiosk-add.ts <name>        (npm run kiosk:add -- <name>)
// With --json the output is {"name":…,"key":…,"pairingLink":…} for scripts and tests.
const args = process.argv.slice(2);
const json = args.includes('--json');
const name = args.find((a) => !a.startsWith('--'))?.trim();
if (!name) {
	console.error('usage: node --import tsx scripts/kiosk-add.ts <name>   (letters, digits, space, _ . -; at most 60)');
	process.exit(2);
}
try {
	const config = getConfig();
	const db = await prepareDatabase(config, systemClock, createLogger('kiosk-add', 'warn'));
	try {
		const { kiosk, key } = await addKiosk(db, systemClock, { name: 'cli:kiosk-add', ip: null }, name);
		const link = pairingLink(config.publicBaseUrl, key);
		if (json) console.log(JSON.stringify({ name: kiosk.name, key, pairingLink: link }));
		else
			console.log(
				`Kiosk "${kiosk.name}" registered.\nKey (shown only now — enter it once on the kiosk page): ${key}\nOr open this pairing link on the kiosk: ${link}`
			);
	} finally {
		await db.$disconnect();
	}
} catch (error) {
	console.error(describe(error));
	process.exit(error instanceof ZodError ? 2 : 1);
}

function describe(error: unknown): string {
	if (error instanceof DomainError) return consoleSentence(error.refusal);
	if (error instanceof ZodError) return error.issues[0]?.message ?? 'the name is not valid';
	if (error instanceof ConfigError || error instanceof MigrationError) return error.message;
	return `could not register the kiosk: ${(error as Error).message}`;
}
