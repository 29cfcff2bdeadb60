import { describe, expect, it } from 'vitest';
import { scrubSecrets } from './secret-scrub.ts';

describe('scrubSecrets', () => {
	it('cuts a bot token wherever it sits, also URL-encoded, and keeps the rest of the text', () => {
		const nested = JSON.stringify({
			err: {
				message: 'Network request failed',
				error: {
					message:
						'request to http://127.0.0.1:9/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/getMe failed, reason: connect ECONNREFUSED'
				}
			}
		});
		expect(scrubSecrets(nested)).toBe(
			JSON.stringify({
				err: {
					message: 'Network request failed',
					error: { message: 'request to http://127.0.0.1:9/bot[redacted]/getMe failed, reason: connect ECONNREFUSED' }
				}
			})
		);
		expect(scrubSecrets('GET /bot123456789%3AAAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/getMe')).toBe(
			'GET /bot[redacted]/getMe'
		);
	});

	it('cuts secrets in link queries and leaves times and ids alone', () => {
		expect(scrubSecrets('open http://k.example/console/setup?token=abc123&x=1')).toBe(
			'open http://k.example/console/setup?token=[redacted]&x=1'
		);
		const plain = '{"time":"2026-12-01T17:35:12.445Z","jobId":123456,"ratio":"16:9"}';
		expect(scrubSecrets(plain)).toBe(plain);
	});
});
