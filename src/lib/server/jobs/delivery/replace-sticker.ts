import { InputFile, type TelegramApi } from '../../telegram/api.ts';
import { STICKER_VARIANTS } from '../../media/sticker-variants.ts';

/**
 * Swaps sticker n of a delivered set for the stored file (replaceStickerInSet keeps its position
 * and the set's link; the guest's Telegram shows the new one without a message from us). Done again
 * after a crash it simply replaces the sticker once more.
 */
export async function replaceStickerInPack(
	api: TelegramApi,
	input: { userId: bigint; packName: string; stickerNumber: number; png: Buffer }
): Promise<void> {
	const set = await api.getStickerSet(input.packName);
	const old = set.stickers[input.stickerNumber - 1];
	if (!old)
		throw new Error(
			`the Telegram set ${input.packName} has no sticker ${input.stickerNumber} (it has ${set.stickers.length})`
		);
	const variant = STICKER_VARIANTS[input.stickerNumber - 1]!;
	const sticker = new InputFile(input.png, `sticker_${input.stickerNumber}.png`);
	await api.replaceStickerInSet(Number(input.userId), input.packName, old.file_id, {
		sticker,
		format: 'static',
		emoji_list: [variant.emoji]
	});
}
