import { describe, expect, it } from 'vitest';
import type { TelegramApi } from './api.ts';
import { sendBroadcastMessage, type BroadcastContent } from './broadcast-message.ts';

// The picture's reference is the file store's (a key on a bucket, a path on DATA_DIR): the sender
// never opens it as a file on this host, where a bucket fleet's picture is not.
describe('sendBroadcastMessage and the picture', () => {
	const photos: unknown[] = [];
	const api = {
		sendPhoto: async (_chat: number, photo: unknown) => {
			photos.push(photo);
			return { message_id: 7, photo: [{ file_id: 'AgAD-new' }] };
		}
	} as unknown as TelegramApi;
	const content: BroadcastContent = {
		id: 3,
		text: 'Hi',
		imagePath: '/var/lib/kiosk/broadcasts/aa.jpg',
		imageFileId: null,
		buttonText: null,
		buttonUrl: null
	};

	it('refuses a picture that was not read from the file store instead of reading the path from disk', async () => {
		await expect(sendBroadcastMessage(api, 1n, 'en', content)).rejects.toThrow(
			'the broadcast’s picture was not read from the file store'
		);
		expect(photos).toEqual([]);
	});

	it('sends the bytes read from the store, or the file_id Telegram already has', async () => {
		expect(await sendBroadcastMessage(api, 1n, 'en', { ...content, image: Buffer.from('jpeg') })).toEqual({
			messageId: 7,
			photoFileId: 'AgAD-new'
		});
		expect(await sendBroadcastMessage(api, 1n, 'en', { ...content, imageFileId: 'AgAD-old' })).toEqual({
			messageId: 7,
			photoFileId: null
		});
		expect(photos.at(-1)).toBe('AgAD-old');
	});
});
