import { DomainError } from '../errors/domain-error.ts';
import { charactersThatFit, fitCaption } from '../media/caption-fit.ts';
import { STICKER_SIDE } from '../media/sticker-format.ts';
import type { EventCaptions } from '../../schemas/event.ts';

const LANGUAGES = ['en', 'ru', 'uz'] as const;

/**
 * The event editor refuses a caption the sticker cannot show whole: one that is too wide even in
 * two lines at the smallest type (media/caption-fit.ts measures it as the drawing renders it). The
 * refusal names the caption and about how many characters like these fit. Image models are asked
 * for the same captions, so a caption refused here would be squeezed or cut by them too.
 */
export async function refuseCaptionsThatCannotFit(captions: EventCaptions | null): Promise<void> {
	if (!captions) return;
	for (const language of LANGUAGES) {
		for (const [index, caption] of (captions[language] ?? []).entries()) {
			if ((await fitCaption(caption, STICKER_SIDE)).fits) continue;
			const fitsCharacters = await charactersThatFit(caption, STICKER_SIDE);
			throw new DomainError({ code: 'CaptionTooLong', language, captionNumber: index + 1, caption, fitsCharacters });
		}
	}
}
