import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAllowedArtefactPath, listStickers, resolveArtefactFile } from './artefact-files.ts';
import { LocalFileStore } from '../files/local-file-store.ts';

describe('console file access', () => {
	const root = mkdtempSync(path.join(tmpdir(), 'artefacts-'));
	afterAll(() => rmSync(root, { recursive: true, force: true }));
	mkdirSync(path.join(root, 'debug_sheets'));
	mkdirSync(path.join(root, 'sessions', 'tok1', 'stickers'), { recursive: true });
	writeFileSync(path.join(root, 'debug_sheets', 'job1_anchor.png'), 'png');
	writeFileSync(path.join(root, 'sessions', 'tok1', 'stickers', 'sticker_1.png'), 'png');
	mkdirSync(path.join(root, 'outfit-previews'));
	writeFileSync(path.join(root, 'outfit-previews', '0123456789abcdef0123456789abcdef.png'), 'png');
	writeFileSync(path.join(root, 'sessions', 'tok1', 'selfie_ab.jpg'), 'jpg');
	writeFileSync(path.join(root, 'app.db'), 'db');
	symlinkSync(path.join(root, 'app.db'), path.join(root, 'debug_sheets', 'job1_link.png'));

	it('serves debug artefacts, stickers and outfit previews', async () => {
		expect(await resolveArtefactFile(root, 'debug_sheets/job1_anchor.png')).toBe(
			path.join(root, 'debug_sheets', 'job1_anchor.png')
		);
		expect(await resolveArtefactFile(root, 'outfit-previews/0123456789abcdef0123456789abcdef.png')).not.toBeNull();
		expect(await resolveArtefactFile(root, 'sessions/tok1/stickers/sticker_1.png')).not.toBeNull();
	});

	it("serves the stickers of a session whose token starts with '-' (base64url: one guest in 64)", async () => {
		mkdirSync(path.join(root, 'sessions', '-dashFirstToken0123456789abcdefgh', 'stickers'), { recursive: true });
		writeFileSync(path.join(root, 'sessions', '-dashFirstToken0123456789abcdefgh', 'stickers', 'sticker_1.png'), 'png');
		expect(isAllowedArtefactPath('sessions/-dashFirstToken0123456789abcdefgh/stickers/sticker_1.png')).toBe(true);
		expect(
			await resolveArtefactFile(root, 'sessions/-dashFirstToken0123456789abcdefgh/stickers/sticker_1.png')
		).not.toBeNull();
	});

	it('refuses selfies, the database, traversal, odd types and symlinks out of the folders', async () => {
		for (const bad of [
			'sessions/tok1/selfie_ab.jpg',
			'app.db',
			'../app.db',
			'debug_sheets/../app.db',
			'debug_sheets/..',
			'debug_sheets/x.db',
			'debug_sheets/.hidden.png',
			'sessions/tok1/stickers/../selfie_ab.jpg',
			'outfit-previews/../app.db',
			'outfit-previews/x/y.png'
		]) {
			expect(await resolveArtefactFile(root, bad)).toBeNull();
		}
		expect(isAllowedArtefactPath('debug_sheets/job1_anchor.png')).toBe(true);
		// The name looks like a sheet, but the link leads to the database.
		expect(await resolveArtefactFile(root, 'debug_sheets/job1_link.png')).toBeNull();
	});

	it('lists a moving sticker once, its still PNG with its clip (sticker_<n>.webm) beside it', async () => {
		const stickers = path.join(root, 'sessions', 'tok2', 'stickers');
		mkdirSync(stickers, { recursive: true });
		for (const name of ['sticker_2.png', 'sticker_10.png', 'sticker_1.png', 'sticker_1.webm'])
			writeFileSync(path.join(stickers, name), 'x');
		const listed = await listStickers(new LocalFileStore(root), 'tok2');
		expect(listed.map((s) => [s.name, s.video?.split('?')[0] ?? null])).toEqual([
			['sticker_1.png', '/api/console/files/sessions/tok2/stickers/sticker_1.webm'],
			['sticker_2.png', null],
			['sticker_10.png', null]
		]);
		expect(await resolveArtefactFile(root, 'sessions/tok2/stickers/sticker_1.webm')).not.toBeNull();
	});
});
