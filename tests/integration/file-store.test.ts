import { utimesSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exists, type FileStore } from '../../src/lib/server/files/file-store.ts';
import { LocalFileStore } from '../../src/lib/server/files/local-file-store.ts';
import { bucketStore, useS3Server } from '../helpers/s3-server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

/** A store to test and a way to make one of its files look older than it is. */
interface StoreUnderTest {
	store: FileStore;
	age(key: string, modifiedAt: Date): void;
}

const tempDir = useTempDir('file-store-');
const s3Server = useS3Server();

const stores: [string, () => Promise<StoreUnderTest>][] = [
	[
		'LocalFileStore',
		async () => {
			const store = new LocalFileStore(tempDir());
			return { store, age: (key, at) => utimesSync(store.pathOf(key), at, at) };
		}
	],
	[
		'S3FileStore on s3rver',
		async () => {
			const server = await s3Server();
			const store = bucketStore(server);
			return { store, age: (key, at) => server.ageObject(key, at) };
		}
	]
];

describe.each(stores)('the FileStore contract: %s', (_name, open) => {
	it('put, get, overwrite and stat a file by its key', async () => {
		const { store } = await open();
		const key = 'sessions/tok123/face_crop.jpg';
		expect(await store.get(key)).toBeNull();
		expect(await store.stat(key)).toBeNull();
		await store.put(key, Buffer.from('first'));
		expect((await store.get(key))?.toString()).toBe('first');
		await store.put(key, 'second, longer');
		expect((await store.get(key))?.toString()).toBe('second, longer');
		const stat = await store.stat(key);
		expect(stat?.bytes).toBe(14);
		expect(Math.abs(stat!.modifiedAt.getTime() - Date.now())).toBeLessThan(60_000);
		expect(await exists(store, key)).toBe(true);
	});

	it('lists by prefix at any depth, with each file’s size and modified time', async () => {
		const { store, age } = await open();
		await store.put('sessions/a/selfie_1.jpg', 'aa');
		await store.put('sessions/a/stickers/sticker_1.png', 'bbb');
		await store.put('sessions/b/face_crop.jpg', 'c');
		await store.put('debug_sheets/job7_anchor.png', 'dddd');
		await store.put('debug_sheets/job71_anchor.png', 'e');
		const old = new Date('2026-01-02T03:04:05.000Z');
		age('sessions/a/stickers/sticker_1.png', old);

		const underA = await store.list('sessions/a/');
		expect(underA.map((f) => [f.key, f.bytes])).toEqual([
			['sessions/a/selfie_1.jpg', 2],
			['sessions/a/stickers/sticker_1.png', 3]
		]);
		expect(underA[1]!.modifiedAt.toISOString()).toBe(old.toISOString());
		expect((await store.list('sessions/')).map((f) => f.key)).toEqual([
			'sessions/a/selfie_1.jpg',
			'sessions/a/stickers/sticker_1.png',
			'sessions/b/face_crop.jpg'
		]);
		expect((await store.list('debug_sheets/job7_')).map((f) => f.key)).toEqual(['debug_sheets/job7_anchor.png']);
		expect(await store.list('catalogues/')).toEqual([]);
	});

	it('deletes one file, a whole folder, and takes a missing key calmly', async () => {
		const { store } = await open();
		await store.put('sessions/a/selfie_1.jpg', 'a');
		await store.put('sessions/a/stickers/sticker_1.png', 'b');
		await store.put('sessions/ab/face_crop.jpg', 'c');
		await store.delete('sessions/a/selfie_1.jpg');
		await store.delete('sessions/a/never_there.jpg');
		expect(await store.get('sessions/a/selfie_1.jpg')).toBeNull();
		await store.deleteFolder('sessions/a');
		await store.deleteFolder('sessions/nobody');
		expect((await store.list('sessions/')).map((f) => f.key)).toEqual(['sessions/ab/face_crop.jpg']);
	});

	it('refuses keys that could leave the store', async () => {
		const { store } = await open();
		for (const key of ['../app.db', 'sessions/../../etc/passwd', '/etc/passwd', 'sessions//x', '']) {
			await expect(store.put(key, 'x'), key).rejects.toThrow(/not a file store key/);
			await expect(store.get(key), key).rejects.toThrow(/not a file store key/);
		}
	});

	it('keeps a reference for the database that reads back to the same key', async () => {
		const { store } = await open();
		const key = 'sessions/tok/selfie_ab.jpg';
		expect(store.keyOf(store.reference(key))).toBe(key);
		expect(store.keyOf(key)).toBe(key);
	});
});

describe('S3FileStore lists past one page', () => {
	it('a prefix with more keys than one ListObjectsV2 page (1000) is listed whole', async () => {
		const server = await s3Server();
		const store = bucketStore(server);
		const keys = Array.from({ length: 1003 }, (_, i) => `debug_sheets/job${i}_anchor.png`);
		for (let i = 0; i < keys.length; i += 50)
			await Promise.all(keys.slice(i, i + 50).map((key) => store.put(key, 'x')));
		expect((await store.list('debug_sheets/')).map((f) => f.key)).toEqual([...keys].sort((a, b) => a.localeCompare(b)));
	}, 60_000);
});

describe('LocalFileStore keeps the folder layout of DATA_DIR', () => {
	it('a key is the path below DATA_DIR, and the database keeps the absolute path it always kept', async () => {
		const dataDir = tempDir();
		const store = new LocalFileStore(dataDir);
		await store.put('sessions/tok/stickers/sticker_3.png', 'png');
		expect(store.pathOf('sessions/tok/stickers/sticker_3.png')).toBe(`${dataDir}/sessions/tok/stickers/sticker_3.png`);
		expect(store.reference('sessions/tok/selfie_ab.jpg')).toBe(`${dataDir}/sessions/tok/selfie_ab.jpg`);
		expect(store.keyOf('/elsewhere/sessions/tok/selfie_ab.jpg')).toBeNull();
	});
});
