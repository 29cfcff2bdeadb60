import { expect, test } from '@playwright/test';
import { noisePicture } from '../helpers/noise-picture.ts';
import { signInOwnOperator } from './console-operator.ts';

/**
 * A broadcast's picture as an operator attaches it in the browser: a real 1 MB photo (random noise,
 * made here with sharp) goes through the console's upload and shows in the preview; one over
 * 10 MB is refused with a sentence under the field. (Pictures over 64 KB used to be refused by the
 * general body limit.)
 */
const OPERATOR = {
	username: 'bahrom_pictures',
	password: 'operator password 790',
	setupToken: 'e2ebroadcastpicturesetuptokenab7',
	role: 'operator' as const
};
const MB = 1024 * 1024;

test('an operator attaches a 1 MB picture to a broadcast and sees it in the preview; over 10 MB is refused', async ({
	page
}) => {
	test.setTimeout(90_000);
	await signInOwnOperator(page, OPERATOR);
	await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link', { name: 'Broadcasts' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'Broadcasts' })).toBeVisible();
	const picture = page.getByLabel('Picture (optional)');
	const preview = page.getByRole('figure', { name: 'Preview as the guest sees it' });
	await page.getByLabel(/^Message/).fill('Photos from the gala are here');

	const photo = await noisePicture('jpeg', MB);
	expect(photo.length).toBeGreaterThanOrEqual(MB);
	const uploaded = page.waitForResponse(
		(r) => r.url().endsWith('/api/console/broadcasts/image') && r.request().method() === 'POST'
	);
	await picture.setInputFiles({ name: 'noise.jpg', mimeType: 'image/jpeg', buffer: photo });
	expect((await uploaded).status()).toBe(201);
	const attached = preview.getByRole('img', { name: 'Attached to the broadcast' });
	await expect(attached).toBeVisible();
	// Loaded from the server, not a broken image.
	await expect
		.poll(() => attached.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
		.toBeGreaterThan(0);
	await expect(page.getByRole('alert')).toHaveCount(0); // neither a refused upload nor a text problem

	await picture.setInputFiles({
		name: 'huge.png',
		mimeType: 'image/png',
		buffer: await noisePicture('png', 10 * MB + 1)
	});
	await expect(page.getByRole('alert').filter({ hasText: 'This picture is larger than 10 MB' })).toBeVisible();
	await expect(preview.getByRole('img', { name: 'Attached to the broadcast' })).toHaveCount(0);
});
