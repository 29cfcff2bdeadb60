/**
 * The Telegram Bot API as the rest of the server sees it. grammY is imported only in this folder
 * and in the bot (src/worker/bot); the job pipeline, delivery and the worker's tasks take a
 * `TelegramApi` (the bot's, or one pointed at the emulator in tests) and the helpers beside it.
 */
export type { Api as TelegramApi } from 'grammy';
export type { StickerSet } from 'grammy/types';
export { InputFile } from 'grammy';
