import { describe, expect, it } from 'vitest';
import { MAX_CAPTION_CHARS, parseBroadcastHtml } from './broadcast-html.ts';

describe('Telegram HTML of a broadcast', () => {
	it('accepts Telegram’s tags, counts characters after entities, and re-emits only what it parsed', () => {
		const parsed = parseBroadcastHtml(
			'<b>Hi</b> &amp; <a href="https://x.uz/a?b=1&amp;c=2">link</a> <tg-spoiler>s</tg-spoiler> <code class="language-js">1&lt;2</code> &#128512;'
		);
		expect(parsed).toMatchObject({ ok: true, plainText: 'Hi & link s 1<2 😀' });
		if (parsed.ok)
			expect(parsed.previewHtml).toContain(
				'<a href="https://x.uz/a?b=1&amp;c=2" rel="noopener noreferrer" target="_blank">link</a>'
			);
	});

	it.each([
		['<script>alert(1)</script>', 'unknown_tag'],
		['<div>x</div>', 'unknown_tag'],
		['<img src=x onerror=alert(1)>', 'unknown_tag'],
		['<a href=https://x.uz>x</a>', 'bad_attribute'],
		['<b>x</b class="y">', 'bad_attribute'],
		['<a href="javascript:alert(1)">x</a>', 'bad_attribute'],
		['<b onclick="x()">x</b>', 'bad_attribute'],
		['<b>x</i>', 'unbalanced'],
		['<b>x', 'unbalanced'],
		['<b><i>x</b></i>', 'unbalanced'],
		['1 < 2', 'stray_angle'],
		['1 > 2', 'stray_angle'],
		['Tom &nbsp; Jerry', 'bad_entity'],
		['AT&T', 'bad_entity'],
		['<b> </b>', 'empty']
	])('refuses %s (%s)', (text, code) => {
		const parsed = parseBroadcastHtml(text);
		expect(parsed.ok ? null : parsed.problem.code).toBe(code);
	});

	it('counts the length Telegram counts: after tags and entities, in UTF-16 units, 1024 under a picture', () => {
		expect(parseBroadcastHtml(`<b>${'a'.repeat(4096)}</b>`).ok).toBe(true);
		expect(parseBroadcastHtml(`${'&amp;'.repeat(4096)}`).ok).toBe(true);
		expect(parseBroadcastHtml('a'.repeat(4097))).toMatchObject({
			ok: false,
			problem: { code: 'too_long', length: 4097, max: 4096 }
		});
		expect(parseBroadcastHtml('😀'.repeat(513), MAX_CAPTION_CHARS)).toMatchObject({
			ok: false,
			problem: { code: 'too_long', length: 1026 }
		});
	});

	it('escapes text in the preview, so nothing typed can become markup', () => {
		const parsed = parseBroadcastHtml('&lt;img src=x onerror=alert(1)&gt; "quoted"');
		expect(parsed.ok && parsed.previewHtml).toBe('&lt;img src=x onerror=alert(1)&gt; "quoted"');
	});
});
