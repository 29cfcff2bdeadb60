import { InputFile } from '../../telegram/api.ts';
import type { FileStore } from '../../files/file-store.ts';
import { STICKER_VARIANTS } from '../../media/sticker-variants.ts';
import { readStored, type JobFileKeys } from '../pipeline/job-files.ts';

/**
 * The twelve InputStickers of a pack, in pack order: a sticker whose clip was made
 * (sticker_<n>.webm) goes as `format: 'video'`, the others as `format: 'static'` PNGs — Telegram
 * sets mix formats. `stillsOnly` sends every sticker still (after Telegram refused a clip).
 */
export interface PackSticker {
	sticker: InputFile;
	format: 'static' | 'video';
	emoji_list: string[];
}

export async function packStickers(
	store: FileStore,
	keys: JobFileKeys,
	options: { stillsOnly?: boolean } = {}
): Promise<PackSticker[]> {
	return Promise.all(
		STICKER_VARIANTS.map(async (variant, i) => {
			const n = i + 1;
			const webm = options.stillsOnly ? null : await store.get(keys.video(n));
			return webm
				? { sticker: new InputFile(webm, `sticker_${n}.webm`), format: 'video' as const, emoji_list: [variant.emoji] }
				: {
						sticker: new InputFile(await readStored(store, keys.sticker(n)), `sticker_${n}.png`),
						format: 'static' as const,
						emoji_list: [variant.emoji]
					};
		})
	);
}
