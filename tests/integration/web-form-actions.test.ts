import { describe, expect, it } from 'vitest';
import { requestWeb, useBuiltWeb } from '../helpers/built-web.ts';

/** Client mistakes on form posts are 4xx answers, never server errors in the log. */
describe('form actions over HTTP', () => {
	const builtWeb = useBuiltWeb('web-form-actions-');

	it('finding 15: unknown form-action names answer 4xx and write no error log line', async () => {
		const { web, db } = await builtWeb.start();
		const fields = { username: 'olga', password: 'some password' };
		const posts = [
			['/console/login?/default', 'application/x-www-form-urlencoded'],
			['/console/login?/nope', 'application/x-www-form-urlencoded'],
			['/?/default', 'application/x-www-form-urlencoded'],
			['/console/logout?/default', 'application/x-www-form-urlencoded'],
			['/console/login', 'application/json'],
			['/kiosk', 'application/x-www-form-urlencoded']
		] as const;
		for (const [pathname, contentType] of posts) {
			const body = contentType === 'application/json' ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
			const answer = await requestWeb(web, pathname, {
				method: 'POST',
				headers: { 'content-type': contentType, accept: 'text/html' },
				body
			});
			expect(answer.status, pathname).toBeGreaterThanOrEqual(400);
			expect(answer.status, pathname).toBeLessThan(500);
			// With JavaScript, the page asks for JSON: the same 4xx, as an action result.
			const enhanced = await requestWeb(web, pathname, {
				method: 'POST',
				headers: { 'content-type': contentType, accept: 'application/json', 'x-sveltekit-action': 'true' },
				body
			});
			expect(enhanced.status, `${pathname} (enhanced)`).toBeLessThan(500);
			expect(await enhanced.text(), `${pathname} (enhanced)`).not.toMatch(/"status":5\d\d/);
		}
		await web.stop(); // flushes the log table
		const errorLines = web
			.output()
			.split('\n')
			.filter((line) => /"level":(50|60)/.test(line));
		expect(errorLines).toEqual([]);
		expect(await db.logEntry.count({ where: { level: { in: ['error', 'fatal'] } } })).toBe(0);
	});
});
