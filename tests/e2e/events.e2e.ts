import sharp from 'sharp';
import { expect, test, type Page } from '@playwright/test';
import { createControlClient } from '../../tools/telegram-emulator/control-client.ts';
import { E2E_EMULATOR_PORT } from '../../playwright.config.ts';
import { selfieJpeg } from '../integration/guest-photos.ts';
import { guestOpensCatalogue, tapStartForToken } from './kiosk-steps.ts';
import { registerE2eKiosk, signInOwnOperator, withE2eDb } from './console-operator.ts';
import { expectToast } from './toasts.ts';
import { openConsolePage } from './console-ready.ts';

/**
 * An event set up in the console reaches its guests: the operator creates an event, publishes its
 * first catalogue, edits it (a company hoodie in place of the astronaut, no superhero) and
 * publishes v2, with the event's own set title and captions, on a kiosk of its own. A guest in the
 * emulator is offered v2 and queues a pack in the hoodie; the operator rolls back to v1 while that
 * job waits; the next guest is offered v1, and the waiting job still draws the hoodie and names
 * its set after the event. Specs share one product per run, so names here are this run's own.
 */
const control = createControlClient(`http://127.0.0.1:${E2E_EMULATOR_PORT}`);
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const eventName = `Acme gala ${run}`;
const kioskName = `e2e-events-${run}`;
const operator = {
	username: `events-${run}`,
	password: 'events-e2e-password-1',
	setupToken: `events-setup-${run}`,
	role: 'operator' as const
};
/** Sticker 1's built-in caption is "Hi!"; the event's is long, so it shows as a wide white line. */
const captions = ['ACME FOREVER', ...Array.from({ length: 11 }, (_, i) => `Acme ${i + 2}`)];
const DEFAULT_IDS = ['astronaut', 'superhero', 'chef', 'pirate', 'wizard', 'knight', 'rockstar', 'chapan'];
test.use({ actionTimeout: 20_000 });
let nextUser = 7_300_001 + Math.floor(Math.random() * 1000) * 10;

/** The operator's action sentence on the event page (a success toast). */
async function expectDone(console: Page, sentence: string | RegExp): Promise<void> {
	await expectToast(console, sentence);
}

/** The guest scans, consents and is shown the catalogue: the outfit ids and titles of its buttons. */
async function guestSeesCatalogue(userId: number, token: string) {
	const catalogue = await guestOpensCatalogue(control, userId, token);
	const buttons = catalogue.buttons.flat().filter((b) => b.callback_data?.startsWith('go:'));
	return {
		messageId: catalogue.message_id,
		ids: buttons.map((b) => b.callback_data!.split(':')[1]),
		texts: buttons.map((b) => b.text)
	};
}

/**
 * Columns of the caption strip (the sticker's bottom tenth) with white caption fill, as a share of
 * the width: the built-in "Hi!" (with a white costume's hem) measures about 0.4, "ACME FOREVER" 1.
 */
async function captionWidth(sticker: Buffer): Promise<number> {
	const { data, info } = await sharp(sticker)
		.resize(256, 256)
		.ensureAlpha()
		.raw()
		.toBuffer({ resolveWithObject: true });
	const columns = new Set<number>();
	for (let y = Math.round(info.height * 0.9); y < info.height; y++) {
		for (let x = 0; x < info.width; x++) {
			const i = (y * info.width + x) * 4;
			if (data[i]! > 235 && data[i + 1]! > 235 && data[i + 2]! > 235 && data[i + 3]! > 200) columns.add(x);
		}
	}
	return columns.size / info.width;
}

test('an event set up in the console reaches its guests; a rollback changes the next guest, not a pack being made', async ({
	page: console,
	browser
}) => {
	test.setTimeout(300_000);
	const kioskKey = await registerE2eKiosk(kioskName);
	await signInOwnOperator(console, operator);

	// Create the event with its set title, then its captions (English) and its kiosk.
	await openConsolePage(console, '/console/events');
	// The list is loaded by the page's script: once it shows, the form is live (typing earlier is lost).
	await expect(console.getByRole('link', { name: 'Default event' })).toBeVisible();
	await console.getByLabel('Name').fill(eventName);
	await console.getByLabel('Sticker-set title').fill('{event} · {first_name}');
	await console.getByRole('button', { name: 'Create event' }).click();
	await expect(console.getByRole('heading', { level: 1, name: new RegExp(eventName) })).toBeVisible();
	await console
		.getByLabel('Captions (en), 12 lines — empty for the built-in ones')
		.fill(captions.slice(0, 11).join('\n'));
	await console.getByRole('button', { name: 'Save event' }).click();
	await expect(console.getByRole('alert')).toHaveText(
		'Give exactly 12 captions for a language (one per line), or leave it empty for the built-in ones.'
	);
	await console.getByLabel('Captions (en), 12 lines — empty for the built-in ones').fill(captions.join('\n'));
	// All still: the long first caption is measured on the picture Telegram gets (a moving one is a WEBM).
	await console.getByLabel(/^Moving stickers/).fill('0');
	await console.getByRole('button', { name: 'Save event' }).click();
	await expectDone(console, 'Event saved.');
	await console.getByRole('checkbox', { name: kioskName }).check();
	await console.getByRole('button', { name: 'Save kiosks' }).click();
	await expectDone(console, 'Kiosks saved.');

	// v1: the draft as it starts (the default event's eight outfits).
	await console.getByRole('button', { name: 'Publish saved draft' }).click();
	await expectDone(console, 'Published: guests of this event see the new catalogue now.');

	// v2: outfit 1 becomes the company hoodie with an uploaded preview; the superhero goes.
	const first = console.getByRole('listitem', { name: 'Outfit 1' });
	await first.getByLabel('Id', { exact: true }).fill('acme-hoodie');
	await first.getByLabel('Emoji', { exact: true }).fill('🧥');
	await first.getByLabel('Title (ru)').fill('Худи Acme');
	await first.getByLabel('Title (uz)').fill('Acme xudi');
	await first.getByLabel('Title (en)').fill('Acme hoodie');
	await first
		.getByLabel('Prompt for the image model')
		.fill('a bright orange company hoodie with the Acme logo on the chest');
	await first.getByRole('combobox').selectOption('rockstar');
	await first.getByLabel('Costume colour').fill('#ff6d00');
	const picture = first.getByLabel(/Preview picture/);
	await picture.setInputFiles({
		name: 'notes.png',
		mimeType: 'image/png',
		buffer: Buffer.from('not a picture at all')
	});
	await expect(first.getByRole('alert')).toHaveText('This file is not a picture: upload a JPEG, PNG or WebP image.');
	const preview = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#ff6d00' } })
		.png()
		.toBuffer();
	await picture.setInputFiles({ name: 'hoodie.png', mimeType: 'image/png', buffer: preview });
	await expect(first.getByRole('img', { name: 'Preview of outfit 1' })).toBeVisible();
	await expect(first.getByRole('alert')).toHaveCount(0);
	await console.getByRole('button', { name: 'Remove outfit 2' }).click();
	await expect(console.getByTestId('bot-preview')).toContainText('1. 🧥 Худи Acme2. 👨‍🍳 Шеф-повар');
	await console.getByLabel('Language').selectOption('en');
	await expect(console.getByTestId('bot-preview')).toContainText('1. 🧥 Acme hoodie2. 👨‍🍳 Chef');
	await console.getByRole('button', { name: 'Save draft' }).click();
	await expectDone(console, 'Draft saved.');
	await console.getByRole('button', { name: 'Publish saved draft' }).click();
	await expectDone(console, 'Published: guests of this event see the new catalogue now.');
	await expect(console.locator('tr[data-version="2"]')).toContainText(
		'Added acme-hoodie; removed astronaut, superhero.'
	);
	await console.getByRole('button', { name: 'Start event' }).click();
	await expectDone(console, 'The event is live.');

	// A guest of the event's kiosk is offered v2 and queues a pack in the hoodie (the queue held).
	const kiosk = await browser.newPage();
	await kiosk.goto('/kiosk');
	await kiosk.getByLabel('Kiosk key').fill(kioskKey);
	await kiosk.getByRole('button', { name: 'Save' }).click();
	const token = await tapStartForToken(kiosk);
	const guest = nextUser++;
	const offered = await guestSeesCatalogue(guest, token);
	expect(offered.ids).toEqual(['acme-hoodie', ...DEFAULT_IDS.slice(2)]);
	expect(offered.texts[0]).toContain('Acme hoodie');
	const hold = () =>
		withE2eDb((db) =>
			db
				.prepare(`INSERT OR REPLACE INTO settings (key, value, updated_at) VALUES ('maintenance', ?, ?)`)
				.run(
					JSON.stringify({ source: 'admin', reason: 'e2e events hold', at: new Date().toISOString() }),
					new Date().toISOString()
				)
		);
	const release = () => withE2eDb((db) => db.prepare(`DELETE FROM settings WHERE key = 'maintenance'`).run());
	await control.pressButton({
		user_id: guest,
		message_id: offered.messageId,
		callback_data: `go:acme-hoodie:${token}`
	});
	await expect(kiosk.getByRole('heading', { name: 'Look at the camera' })).toBeVisible();
	await expect(kiosk.getByText('Your outfit: 🧥 Acme hoodie')).toBeVisible();
	// The camera screen shows the preview uploaded in the console (one catalogue): an orange square,
	// not the rockstar costume drawn in its colours.
	const shown = kiosk.locator('p.outfit img');
	await expect.poll(() => shown.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBe(512);
	const served = await kiosk.request.get((await shown.getAttribute('src'))!);
	expect([served.status(), served.headers()['content-type']]).toEqual([200, 'image/png']);
	const [red, green, blue] = (await sharp(await served.body()).stats()).channels.map((c) => c.mean);
	expect([red! > 240, green! > 90 && green! < 130, blue! < 20]).toEqual([true, true, true]);
	hold();
	try {
		const photo = await kiosk.request.post(`/api/kiosk/sessions/${token}/photo`, {
			headers: { origin: new URL(kiosk.url()).origin, 'content-type': 'image/jpeg' },
			data: await selfieJpeg(800, 600)
		});
		expect(photo.status()).toBe(201);
		await expect(kiosk.getByRole('heading', { name: 'Your stickers are being drawn!' })).toBeVisible();
		const job = withE2eDb((db) =>
			db
				.prepare(
					`SELECT j.job_id AS jobId, s.catalogue_version AS version, s.outfit_json AS outfit FROM jobs j JOIN job_snapshots s ON s.job_id = j.job_id WHERE j.session_token = ?`
				)
				.get(token)
		) as { jobId: number; version: number; outfit: string };
		expect([job.version, JSON.parse(job.outfit).id]).toEqual([2, 'acme-hoodie']);

		// Roll back to v1 while that job waits (the queue held, so it is not drawn yet); the next guest is offered v1.
		await console.getByRole('button', { name: 'Roll back to version 1' }).click();
		await expectDone(console, "Version 1's outfits are live again.");
		await expect(console.locator('tr[data-version="3"]')).toContainText('(live)');
		expect(withE2eDb((db) => db.prepare(`SELECT status FROM jobs WHERE job_id = ?`).get(job.jobId))).toEqual({
			status: 'queued'
		});
	} finally {
		// The kiosk takes no new guest while the queue is held: released once the roll back is done.
		release();
	}
	const next = await tapStartForToken(kiosk);
	expect((await guestSeesCatalogue(nextUser++, next)).ids).toEqual(DEFAULT_IDS);

	// The job made from v2 finishes in the hoodie, named and captioned by the event.
	await expect
		.poll(
			() =>
				(
					withE2eDb((db) => db.prepare(`SELECT status FROM jobs WHERE session_token = ?`).get(token)) as {
						status: string;
					}
				).status,
			{ timeout: 180_000, intervals: [1000] }
		)
		.toBe('done');
	const { packName } = withE2eDb((db) =>
		db.prepare(`SELECT pack_name AS packName FROM jobs WHERE session_token = ?`).get(token)
	) as { packName: string };
	const set = await control.getStickerSet(packName);
	expect(set?.title).toBe(`${eventName} · Kamola`);
	expect(set?.stickers).toHaveLength(12);
	expect(await captionWidth(await control.fileBytes(set!.stickers[0]!.url))).toBeGreaterThan(0.8);
	const snapshot = withE2eDb((db) =>
		db
			.prepare(
				`SELECT s.catalogue_version AS version, s.outfit_json AS outfit FROM job_snapshots s JOIN jobs j ON j.job_id = s.job_id WHERE j.session_token = ?`
			)
			.get(token)
	) as { version: number; outfit: string };
	expect([snapshot.version, JSON.parse(snapshot.outfit).title.en]).toEqual([2, 'Acme hoodie']);
	await kiosk.close();
});
