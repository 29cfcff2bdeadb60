import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { sniffPhotoFormat } from '../../src/lib/server/media/photo-normalise.ts';
import { uploadSelfie } from '../../src/lib/server/kiosk/photo-upload.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { sessionRow, startGuestWorld, startSession, uploadDeps, type GuestWorld } from './guest-harness.ts';
import { selfieJpeg, streamOf } from './guest-photos.ts';

/** Hostile uploads at the upload service: size, sniffing, pixel bombs, truncation, metadata. */
describe('the selfie upload', () => {
	const tempDir = useTempDir('guest-upload-');
	let world: GuestWorld;
	afterEach(async () => world?.close());

	async function readySession(): Promise<string> {
		const token = await startSession(world);
		await world.db.user.create({ data: { telegramUserId: 42n, createdAt: world.clock.now().toISOString() } });
		await world.db.session.update({
			where: { sessionToken: token },
			data: {
				status: 'template_chosen',
				templateId: 'knight',
				telegramUserId: 42n,
				updatedAt: world.clock.now().toISOString()
			}
		});
		return token;
	}

	const upload = (token: string, bytes: Buffer, declared: number | null = null) =>
		uploadSelfie(uploadDeps(world), world.kiosk.id, token, streamOf(bytes), declared);

	it('refuses bad files with the right problem, keeps nothing, and the session still takes a good photo', async () => {
		world = await startGuestWorld(tempDir());
		const token = await readySession();
		const jpeg = await selfieJpeg(800, 600);
		const cases: [string, Buffer, string][] = [
			[
				'16 MB (no length declared: counted while streaming)',
				Buffer.concat([jpeg, Buffer.alloc(16 * 1024 * 1024, 1)]),
				'too_large'
			],
			['a text file named .jpg', Buffer.from('just text, not a photo\n'.repeat(100)), 'rejected:not_an_image'],
			[
				'an SVG',
				Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000"/>'),
				'rejected:not_an_image'
			],
			['a truncated JPEG', jpeg.subarray(0, Math.floor(jpeg.length * 0.6)), 'rejected:damaged'],
			[
				'a JPEG header glued to text (polyglot)',
				Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<script>alert(1)</script>')]),
				'rejected:damaged'
			]
		];
		for (const [label, bytes, expected] of cases) {
			const outcome = await upload(token, bytes);
			const got = outcome.kind === 'rejected' ? `rejected:${outcome.problem}` : outcome.kind;
			expect([label, got]).toEqual([label, expected]);
		}
		expect(await upload(token, Buffer.alloc(10), 16 * 1024 * 1024)).toEqual({ kind: 'too_large' });
		expect(existsSync(path.join(world.dir, 'sessions', token))).toBe(false);
		expect((await sessionRow(world, token)).status).toBe('template_chosen');
		expect((await upload(token, jpeg)).kind).toBe('enqueued');
	});

	it('a 14000×14000 PNG is refused from its header, with memory staying bounded', async () => {
		world = await startGuestWorld(tempDir());
		const token = await readySession();
		const bomb = await sharp({ create: { width: 14000, height: 14000, channels: 3, background: '#000' } })
			.png({ compressionLevel: 9 })
			.toBuffer();
		expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
		global.gc?.();
		const before = process.memoryUsage().rss;
		const outcome = await upload(token, bomb);
		const grown = process.memoryUsage().rss - before;
		expect(outcome).toEqual({ kind: 'rejected', problem: 'too_many_pixels' });
		// Decoding it would take 14000² × 3 ≈ 588 MB.
		expect(grown).toBeLessThan(150 * 1024 * 1024);
		expect(existsSync(path.join(world.dir, 'sessions', token))).toBe(false);
	});

	it('a phone JPEG with GPS EXIF is rotated upright, shrunk to 2048 px and stored without any metadata', async () => {
		world = await startGuestWorld(tempDir());
		const token = await readySession();
		const photo = await selfieJpeg(3000, 2000, true);
		const input = await sharp(photo).metadata();
		expect([input.orientation, input.exif!.length > 300]).toEqual([6, true]);
		const outcome = await upload(token, photo);
		expect(outcome.kind).toBe('enqueued');
		const job = await world.db.job.findFirstOrThrow({ where: { sessionToken: token } });
		expect(path.basename(job.photoPath)).toMatch(/^selfie_[0-9a-f]{16}\.jpg$/);
		const stored = await sharp(job.photoPath).metadata();
		expect([stored.format, stored.exif, stored.xmp, stored.iptc, stored.icc, stored.orientation]).toEqual([
			'jpeg',
			undefined,
			undefined,
			undefined,
			undefined,
			undefined
		]);
		// Orientation 6 means "rotate 90°": the stored copy is portrait, longest side 2048.
		expect([stored.width, stored.height]).toEqual([1365, 2048]);
		expect((await readFileBytes(job.photoPath)).includes(Buffer.from('TestPhone'))).toBe(false);
		const crop = await sharp(path.join(world.dir, 'sessions', token, 'face_crop.jpg')).metadata();
		expect(crop.width).toBe(crop.height);
		expect(readdirSync(path.join(world.dir, 'sessions', token)).sort()).toEqual(
			['face_crop.jpg', path.basename(job.photoPath)].sort()
		);
	});

	it('an upload before the outfit is chosen is refused (not_ready) and reads no body', async () => {
		world = await startGuestWorld(tempDir());
		const token = await startSession(world);
		expect(await upload(token, await selfieJpeg())).toEqual({ kind: 'not_ready', status: 'idle' });
	});

	it('sniffs formats from bytes only', () => {
		expect(sniffPhotoFormat(Buffer.from([0xff, 0xd8, 0xff, 0xdb]))).toBe('jpeg');
		expect(sniffPhotoFormat(Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'))).toBe('png');
		expect(sniffPhotoFormat(Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'))).toBe('webp');
		expect(sniffPhotoFormat(Buffer.from('<svg'))).toBeNull();
		expect(sniffPhotoFormat(Buffer.from('GIF89a'))).toBeNull();
	});
});

async function readFileBytes(file: string): Promise<Buffer> {
	const { readFile } = await import('node:fs/promises');
	return readFile(file);
}
