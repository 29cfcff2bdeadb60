import { describe, expect, it } from 'vitest';
import { detectUserEntities, formatText } from './formatting.ts';

describe('HTML parse mode', () => {
	it('turns tags into entities with UTF-16 offsets and decodes character references', () => {
		expect(
			formatText('Привет, <b>Аня</b> &amp; <a href="https://t.me/addstickers/x_by_b">set</a> 😀<i>!</i>', 'HTML')
		).toEqual({
			text: 'Привет, Аня & set 😀!',
			entities: [
				{ type: 'bold', offset: 8, length: 3 },
				{ type: 'text_link', offset: 14, length: 3, url: 'https://t.me/addstickers/x_by_b' },
				{ type: 'italic', offset: 20, length: 1 }
			]
		});
	});

	it('reads <pre><code class="language-x"> as one pre entity', () => {
		expect(formatText('<pre><code class="language-ts">let a</code></pre>', 'HTML').entities).toEqual([
			{ type: 'pre', offset: 0, length: 5, language: 'ts' }
		]);
	});

	it('refuses unsupported, unclosed and mismatched tags', () => {
		expect(() => formatText('<div>x</div>', 'HTML')).toThrow('Unsupported start tag "div" at byte offset 0');
		expect(() => formatText('<b>x', 'HTML')).toThrow('Can\'t find end tag corresponding to start tag "b"');
		expect(() => formatText('<b><i>x</b></i>', 'HTML')).toThrow(
			'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"'
		);
		expect(() => formatText('<span>x</span>', 'HTML')).toThrow('Unsupported start tag "span"');
	});
});

describe('MarkdownV2 parse mode', () => {
	it('parses entities and escapes', () => {
		expect(
			formatText('*bold* _it_ __under__ ~s~ ||sp|| `c\\`` [link](https://x.io/a\\)b) 1\\.5', 'MarkdownV2')
		).toEqual({
			text: 'bold it under s sp c` link 1.5',
			entities: [
				{ type: 'bold', offset: 0, length: 4 },
				{ type: 'italic', offset: 5, length: 2 },
				{ type: 'underline', offset: 8, length: 5 },
				{ type: 'strikethrough', offset: 14, length: 1 },
				{ type: 'spoiler', offset: 16, length: 2 },
				{ type: 'code', offset: 19, length: 2 },
				{ type: 'text_link', offset: 22, length: 4, url: 'https://x.io/a)b' }
			]
		});
	});

	it('refuses unescaped reserved characters and unclosed entities', () => {
		expect(() => formatText('Ready!', 'MarkdownV2')).toThrow("Character '!' is reserved");
		expect(() => formatText('*bold', 'MarkdownV2')).toThrow("Can't find end of Bold entity at byte offset 0");
	});
});

describe('legacy Markdown and plain text', () => {
	it('allows reserved characters and keeps given entities', () => {
		expect(formatText('*b* 1.5!', 'Markdown')).toEqual({
			text: 'b 1.5!',
			entities: [{ type: 'bold', offset: 0, length: 1 }]
		});
		const entities = [{ type: 'bold', offset: 0, length: 2 }];
		expect(formatText('<b>', undefined, entities)).toEqual({ text: '<b>', entities });
		expect(() => formatText('x', 'BBCode')).toThrow('unsupported parse_mode');
	});

	it('marks a leading command the way Telegram apps do', () => {
		expect(detectUserEntities('/start abc')).toEqual([{ type: 'bot_command', offset: 0, length: 6 }]);
		expect(detectUserEntities('hi /start')).toEqual([]);
	});
});
