import type { Db } from '../db/client.ts';
import { STICKER_VARIANTS } from '../media/sticker-variants.ts';
import type { Locale } from '../../i18n/locale.ts';
import type { OutfitSnapshot } from '../../schemas/outfit.ts';
import { outfitForJob } from './catalogue.repository.ts';
import { DEFAULT_EVENT_ID, findEvent } from './events.repository.ts';
import { readJobSnapshot } from './job-snapshots.repository.ts';

/** What a job takes from its event: the outfit as snapshotted, the captions and what names the set. */
export interface JobEventBrief {
	outfit: OutfitSnapshot;
	/** The 12 captions in the guest's language, in sticker order. */
	captions: string[];
	event: { id: number; name: string; titleTemplate: string };
}

export function builtInCaptions(locale: Locale): string[] {
	return STICKER_VARIANTS.map((variant) => variant.caption[locale]);
}

/**
 * Reads the job's snapshot. A job queued before events existed has none: it takes the default
 * event's outfit of that id, or — an id no catalogue knows — an outfit described by its id alone,
 * as such jobs were always drawn.
 */
export async function jobEventBrief(db: Db, jobId: number, outfitId: string, locale: Locale): Promise<JobEventBrief> {
	const snapshot = await readJobSnapshot(db, jobId);
	const eventId = snapshot?.eventId ?? DEFAULT_EVENT_ID;
	const outfit = snapshot?.outfit ?? (await outfitForJob(db, DEFAULT_EVENT_ID, outfitId))?.outfit ?? (await describedById(db, outfitId));
	const event = await findEvent(db, eventId);
	return {
		outfit,
		captions: event?.captions?.[locale] ?? builtInCaptions(locale),
		event: { id: eventId, name: event?.name ?? '', titleTemplate: event?.titleTemplate ?? '{pack_title}' }
	};
}

async function describedById(db: Db, outfitId: string): Promise<OutfitSnapshot> {
	const base = (await outfitForJob(db, DEFAULT_EVENT_ID, 'astronaut'))?.outfit;
	const title = { ru: outfitId, uz: outfitId, en: outfitId };
	return {
		id: outfitId.slice(0, 16),
		emoji: '🎉',
		title,
		prompt: `the "${outfitId}" outfit`,
		palette: base?.palette ?? { background: ['#1d2b64', '#0b1026'], body: '#f4f6fb', trim: '#ff7a1a' },
		figure: base?.figure ?? 'astronaut',
		preview: null
	};
}
