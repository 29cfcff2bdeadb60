import type { Locale } from '../../../i18n/locale.ts';
import type { Db } from '../../db/client.ts';
import { defaultOutfitSnapshot } from '../../outfits/default-outfit.ts';
import { builtInCaptions } from '../../media/sticker-variants.ts';
import { eventCaptionsSchema } from '../../../schemas/event.ts';
import type { OutfitSnapshot } from '../../../schemas/outfit.ts';
import { readJobSnapshot } from '../job-snapshot.repository.ts';
import { DEFAULT_ANIMATED_STICKERS } from '../../media/sticker-motion.ts';

/**
 * What a job takes from its event: the outfit it was queued with (job_snapshots), the twelve
 * captions in the guest's language and the set title template. A job queued before events has no
 * snapshot: it draws the built-in catalogue's outfit of its template_id, with the built-in
 * captions and the default title.
 */
export interface JobEventChoices {
	outfit: OutfitSnapshot;
	captions: string[];
	titleTemplate: string;
	eventName: string;
	/** How many of the twelve move (events.animated_stickers); the default for a job without an event. */
	animatedStickers: number;
}

export const DEFAULT_TITLE_TEMPLATE = '{pack_title}';

export async function readJobEventChoices(
	db: Db,
	job: { jobId: number; templateId: string },
	locale: Locale
): Promise<JobEventChoices> {
	const snapshot = await readJobSnapshot(db, job.jobId);
	const event = snapshot ? await db.event.findUnique({ where: { id: snapshot.eventId } }) : null;
	return {
		outfit: snapshot?.outfit ?? defaultOutfitSnapshot(job.templateId),
		captions: eventCaptions(event?.captionsJson ?? null, locale),
		titleTemplate: event?.titleTemplate ?? DEFAULT_TITLE_TEMPLATE,
		eventName: event?.name ?? '',
		animatedStickers: event?.animatedStickers ?? DEFAULT_ANIMATED_STICKERS
	};
}

/** The event's captions in this language, or the built-in ones when it sets none (or none that read). */
export function eventCaptions(captionsJson: string | null, locale: Locale): string[] {
	if (!captionsJson) return builtInCaptions(locale);
	let parsed: unknown;
	try {
		parsed = JSON.parse(captionsJson);
	} catch {
		return builtInCaptions(locale);
	}
	const captions = eventCaptionsSchema.safeParse(parsed);
	return (captions.success && captions.data[locale]) || builtInCaptions(locale);
}
