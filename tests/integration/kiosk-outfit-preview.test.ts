import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import { outfitPreviewPng } from '../../src/lib/server/events/catalogue-picture.ts';
import { outfitPreviewKey } from '../../src/lib/server/events/outfit-previews.ts';
import { createKiosk } from '../../src/lib/server/kiosk/kiosk-keys.ts';
import { recordKioskSession } from '../../src/lib/server/kiosk/kiosk-sessions.repository.ts';
import { SEED_OUTFITS } from '../../src/lib/server/outfits/seed-catalogue.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import type { KioskSessionView } from '../../src/lib/schemas/kiosk.ts';
import type { Outfit } from '../../src/lib/schemas/outfit.ts';
import { callTrpc, requestWeb, signIn, useBuiltWeb, type BuiltWeb } from '../helpers/built-web.ts';
import { localFileStore } from '../helpers/file-store.ts';
import { insertOperator, TEST_PASSWORD } from './console-fixtures.ts';

/** A guest of `kioskId` who has chosen `outfitId` in the bot (the bot's own steps are the guest flow's tests). */
async function guestChose(db: Db, kioskId: number, outfitId: string): Promise<string> {
	const token = `kop${kioskId}${outfitId}`.padEnd(32, 'x');
	const now = systemClock.now().toISOString();
	await db.user.create({
		data: { telegramUserId: 700n + BigInt(kioskId), firstName: 'Guest', consentedAt: now, createdAt: now }
	});
	await db.$transaction(async (tx) => {
		await tx.session.create({
			data: {
				sessionToken: token,
				status: 'template_chosen',
				telegramUserId: 700n + BigInt(kioskId),
				templateId: outfitId,
				createdAt: now,
				updatedAt: now
			}
		});
		await recordKioskSession(tx, kioskId, token, now);
	});
	return token;
}

/** The kiosk's own reads: its session's view, then the outfit picture the view names. */
async function kioskSees(web: BuiltWeb, key: string, token: string) {
	const cookie = `kiosk_key=${key}`;
	const view = (await (await requestWeb(web, `/api/kiosk/sessions/${token}`, { cookie })).json()) as KioskSessionView;
	const picture = await requestWeb(web, view.outfit!.preview, { cookie });
	return {
		view,
		status: picture.status,
		type: picture.headers.get('content-type'),
		bytes: Buffer.from(await picture.arrayBuffer())
	};
}

describe('one outfit catalogue: a preview uploaded in the console is what the kiosk shows', () => {
	const builtWeb = useBuiltWeb('kiosk-outfit-preview-');

	it(
		'upload → save → publish in the console; the kiosk camera screen then shows the uploaded picture',
		{ timeout: 120_000 },
		async () => {
			const { web, db } = await builtWeb.start();
			const files = localFileStore(web.dataDir);
			const { kiosk, key } = await createKiosk(db, systemClock, 'hall');
			const token = await guestChose(db, kiosk.id, 'astronaut');

			// Before any upload: the seed outfit, drawn in its colours (the bot's catalogue sheet draws the same).
			const before = await kioskSees(web, key, token);
			expect(before.view.outfit).toMatchObject({ emoji: '🚀', title: { en: 'Astronaut' } });
			expect([before.status, before.type]).toEqual([200, 'image/png']);
			expect(before.bytes.equals(await outfitPreviewPng(files, SEED_OUTFITS[0]!))).toBe(true);

			await insertOperator(db, systemClock, 'ivan', 'operator');
			const cookie = await signIn(web, 'ivan', TEST_PASSWORD);
			const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#00a86b' } })
				.jpeg()
				.toBuffer();
			const uploaded = await requestWeb(web, '/api/console/outfit-previews', {
				method: 'POST',
				cookie,
				headers: { 'content-type': 'application/octet-stream' },
				body: new Uint8Array(photo)
			});
			expect(uploaded.status).toBe(200);
			const { preview } = (await uploaded.json()) as { preview: string };

			const detail = (await callTrpc(web, cookie, 'query', 'events.detail', { eventId: 1 })).body.result?.data as {
				draft: { revision: number; outfits: Outfit[] };
			};
			const outfits = detail.draft.outfits.map((o) => (o.id === 'astronaut' ? { ...o, preview } : o));
			const saved = await callTrpc(web, cookie, 'mutation', 'events.saveDraft', {
				eventId: 1,
				revision: detail.draft.revision,
				outfits
			});
			expect(saved.status).toBe(200);

			// Saved but not published: guests still see version 1's picture.
			const draftOnly = await kioskSees(web, key, token);
			expect(draftOnly.view.outfit!.preview).toBe(before.view.outfit!.preview);
			expect(draftOnly.bytes.equals(before.bytes)).toBe(true);

			const revision = (saved.body.result?.data as { revision: number }).revision;
			expect((await callTrpc(web, cookie, 'mutation', 'events.publish', { eventId: 1, revision })).status).toBe(200);

			const after = await kioskSees(web, key, token);
			expect(after.view.outfit!.preview).not.toBe(before.view.outfit!.preview);
			expect([after.status, after.type]).toEqual([200, 'image/png']);
			expect(after.bytes.equals((await files.get(outfitPreviewKey(preview)))!)).toBe(true);
		}
	);

	it(
		'the picture is the kiosk’s own session’s: no cookie is 401, another kiosk or no outfit chosen is 404',
		{ timeout: 120_000 },
		async () => {
			const { web, db } = await builtWeb.start();
			const hall = await createKiosk(db, systemClock, 'hall');
			const lobby = await createKiosk(db, systemClock, 'lobby');
			const token = await guestChose(db, hall.kiosk.id, 'chef');
			const { view } = await kioskSees(web, hall.key, token);
			const address = view.outfit!.preview;

			expect((await requestWeb(web, address)).status).toBe(401);
			expect((await requestWeb(web, address, { cookie: `kiosk_key=${lobby.key}` })).status).toBe(404);
			await db.session.update({ where: { sessionToken: token }, data: { templateId: null, status: 'linked' } });
			expect((await requestWeb(web, address, { cookie: `kiosk_key=${hall.key}` })).status).toBe(404);
		}
	);
});
