import { InputFile, type TelegramApi } from '../../telegram/api.ts';
import { STICKER_VARIANTS } from '../../media/sticker-variants.ts';

/**
 * Swaps sticker n of a delivered set for the stored file (replaceStickerInSet keeps its position
 * and the set's link; the guest's Telegram shows the new one without a message from us). A sticker
 * that moved is replaced by its new clip (`webm`, format video); without one it goes still. Done
 * again after a crash it simply replaces the sticker once more.
 */
export async function replaceStickerInPack(
	api: TelegramApi,
	input: { userId: bigint; packName: string; stickerNumber: number; png: Buffer; webm?: Buffer | null }
): Promise<void> {
	const old = await stickerInPack(api, input.packName, input.stickerNumber);
	const variant = STICKER_VARIANTS[input.stickerNumber - 1]!;
	const sticker = input.webm
		? { sticker: new InputFile(input.webm, `sticker_${input.stickerNumber}.webm`), format: 'video' as const }
		: { sticker: new InputFile(input.png, `sticker_${input.stickerNumber}.png`), format: 'static' as const };
	await api.replaceStickerInSet(Number(input.userId), input.packName, old.file_id, {
		...sticker,
		emoji_list: [variant.emoji]
	});
}

/** Sticker n of a delivered set as Telegram has it (is_video tells whether it moves). */
export async function stickerInPack(api: TelegramApi, packName: string, n: number) {
	const set = await api.getStickerSet(packName);
	const sticker = set.stickers[n - 1];
	if (!sticker) throw new Error(`the Telegram set ${packName} has no sticker ${n} (it has ${set.stickers.length})`);
	return sticker;
}
