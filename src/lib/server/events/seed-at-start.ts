import type { Db } from '../db/client.ts';
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../time/clock.ts';
import { seedDefaultCatalogue } from './catalogue.repository.ts';

/** Both processes, right after the migrations: the default event's catalogue exists from then on. */
export async function seedCatalogueAtStart(db: Db, clock: Clock, logger: Logger): Promise<void> {
	const version = await seedDefaultCatalogue(db, clock);
	if (version !== null) logger.info({ version }, 'default event had no catalogue: published the built-in outfits');
}
