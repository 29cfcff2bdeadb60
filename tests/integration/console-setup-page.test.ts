import { describe, expect, it } from 'vitest';
import { SETUP_SETTING_KEY } from '../../src/lib/server/auth/owner-setup.ts';
import { hashSessionToken } from '../../src/lib/server/auth/session-token.ts';
import { HOUR } from '../../src/lib/server/time/clock.ts';
import { postForm, requestWeb, useBuiltWeb } from '../helpers/built-web.ts';

/**
 * The first-run setup page on the built server: a link older than 24 hours shows a page that says
 * it has expired and to restart the web process, and its form cannot create the owner.
 */
describe('the setup page and an expired link', () => {
	const { start } = useBuiltWeb('setup-page-');
	const TOKEN = 'abcdefghijklmnopqrstuvwxyz234567';

	it('an expired link says so and what to do; the same link fresh opens the form', async () => {
		const { web, db } = await start();
		const plant = (issuedAt: Date) =>
			db.setting.update({
				where: { key: SETUP_SETTING_KEY },
				data: { value: JSON.stringify({ hash: hashSessionToken(TOKEN), created_at: issuedAt.toISOString() }) }
			});

		await plant(new Date(Date.now() - 25 * HOUR));
		const expired = await requestWeb(web, `/console/setup?token=${TOKEN}`);
		const page = await expired.text();
		expect(page).toContain('This setup link has expired');
		expect(page).toContain('Restart the web process');
		expect(page).not.toContain('Create owner and sign in');
		const posted = await postForm(web, '/console/setup', {
			token: TOKEN,
			username: 'olga',
			displayName: '',
			password: 'a long owner password',
			confirm: 'a long owner password'
		});
		expect(await posted.text()).toContain('This setup link has expired');
		expect(await db.operator.count()).toBe(0);

		await plant(new Date(Date.now() - HOUR));
		expect(await (await requestWeb(web, `/console/setup?token=${TOKEN}`)).text()).toContain('Create owner and sign in');
	}, 60_000);
});
