import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputFile } from 'grammy';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { botFor, makePng, makeVideo, startedUser, startEmulator, TEST_TOKEN } from './test-support.ts';

let dir: string;

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), 'telegram-emulator-'));
});

afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

describe('state file', () => {
	it('keeps messages, sticker sets and files across a restart', async () => {
		const statePath = join(dir, 'state.json');
		const first = await startEmulator({ statePath, saveDebounceMs: 10 });
		const api = botFor(first).api;
		const userId = await startedUser(first);
		await api.sendMessage(userId, 'Before the restart', {
			reply_markup: { inline_keyboard: [[{ text: 'Again', callback_data: 'again' }]] }
		});
		const png = await makePng(512, 512);
		const webm = await makeVideo();
		const photo = await api.sendPhoto(userId, new InputFile(await makePng(300, 200)));
		await api.createNewStickerSet(userId, 'kept_by_sticker_kiosk_bot', 'Kept', [
			{ sticker: new InputFile(png), format: 'static', emoji_list: ['💾'] },
			{ sticker: new InputFile(webm), format: 'video', emoji_list: ['🎬'] }
		]);
		await first.close();
		expect(JSON.parse(await readFile(statePath, 'utf8'))).toMatchObject({ version: 1 });
		expect((await readdir(join(dir, 'files'))).length).toBeGreaterThanOrEqual(2);

		const second = await startEmulator({ statePath });
		try {
			const messages = await second.control.chatMessages(userId);
			expect(messages.map((message) => message.text ?? 'photo')).toEqual(['/start', 'Before the restart', 'photo']);
			expect(messages[1]?.buttons).toEqual([[{ text: 'Again', callback_data: 'again' }]]);
			const set = await second.control.getStickerSet('kept_by_sticker_kiosk_bot');
			expect(set?.stickers.map((sticker) => sticker.is_video)).toEqual([false, true]);
			expect((await second.control.fileBytes(set?.stickers[0]?.url ?? '')).equals(png)).toBe(true);
			expect((await second.control.fileBytes(set?.stickers[1]?.url ?? '')).equals(webm)).toBe(true);
			const stored = await botFor(second).api.getStickerSet('kept_by_sticker_kiosk_bot');
			expect(stored.stickers[1]).toMatchObject({ is_video: true, width: 512, height: 512 });

			// The same token is still this bot, and its files are still served.
			const file = await botFor(second).api.getFile(photo.photo?.at(-1)?.file_id ?? '');
			const download = await fetch(`${second.url}/file/bot${TEST_TOKEN}/${file.file_path}`);
			expect(download.status).toBe(200);
			const next = await botFor(second).api.sendMessage(userId, 'After');
			expect(next.message_id).toBe(4);
		} finally {
			await second.close();
		}
	});

	it('starts afresh, keeping the old file aside, when the state file is unreadable', async () => {
		const statePath = join(dir, 'state.json');
		await writeFile(statePath, '{ not json');
		const emulator = await startEmulator({ statePath });
		try {
			expect(await emulator.control.users()).toEqual([]);
			expect((await readdir(dir)).some((name) => name.startsWith('state.json.unreadable-'))).toBe(true);
		} finally {
			await emulator.close();
		}
	});
});

describe('reset', () => {
	it('forgets chats, sets and faults but keeps update ids counting up', async () => {
		const emulator = await startEmulator();
		try {
			const api = botFor(emulator).api;
			await startedUser(emulator);
			const [before] = await api.getUpdates();
			await emulator.control.injectFault({ method: 'sendMessage', kind: '429', retry_after: 1 });
			await emulator.control.reset();
			expect(await emulator.control.listChats()).toEqual([]);
			expect((await emulator.control.callCounts()).calls).toEqual([]);
			const { message, update_id } = await emulator.control.sendUserMessage({
				user: { first_name: 'New' },
				text: 'hi'
			});
			expect(update_id).toBeGreaterThan(before?.update_id ?? Infinity);
			// The fault was cleared: this goes through at once.
			await expect(api.sendMessage(message.chat_id, 'ok')).resolves.toMatchObject({ text: 'ok' });
		} finally {
			await emulator.close();
		}
	});
});
