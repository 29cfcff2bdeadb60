/**
 * Telegram's HTML subset for broadcast texts, checked the way Telegram parses it: only its tags and
 * attributes, properly nested, `<` and `&` escaped outside tags, only &lt; &gt; &amp; &quot; and
 * numeric entities, and at most 4096 characters (1024 under a photo) once tags and entities are
 * parsed — Telegram counts UTF-16 code units, as String.length does. The same parse gives the
 * console's preview: the tags are re-emitted from what was parsed (never the raw input), so the
 * preview can show nothing Telegram would not.
 */
export const MAX_TEXT_CHARS = 4096;
export const MAX_CAPTION_CHARS = 1024;

export type HtmlProblem =
	| { code: 'empty' }
	| { code: 'unknown_tag'; tag: string }
	| { code: 'bad_attribute'; tag: string }
	| { code: 'unbalanced'; tag: string }
	| { code: 'bad_entity'; entity: string }
	| { code: 'stray_angle' }
	| { code: 'too_long'; length: number; max: number };

export type ParsedHtml = { ok: true; plainText: string; previewHtml: string } | { ok: false; problem: HtmlProblem };

const SIMPLE_TAGS = new Set([
	'b',
	'strong',
	'i',
	'em',
	'u',
	'ins',
	's',
	'strike',
	'del',
	'tg-spoiler',
	'code',
	'pre',
	'blockquote'
]);
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };
const TAG = /^<(\/?)([a-z][a-z0-9-]*)([^<>]*)>/i;
const ATTRIBUTES = /^(?:\s+[a-z-]+(?:="[^"]*")?)*\s*$/i;
const ATTRIBUTE = /([a-z-]+)(?:="([^"]*)")?/gi;
const ENTITY = /^&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/i;

export function parseBroadcastHtml(raw: string, maxChars = MAX_TEXT_CHARS): ParsedHtml {
	const open: string[] = [];
	let plain = '';
	let preview = '';
	for (let i = 0; i < raw.length;) {
		const ch = raw[i]!;
		if (ch === '<') {
			const match = TAG.exec(raw.slice(i));
			if (!match) return fail({ code: 'stray_angle' });
			const [whole, closing, name, attrs] = match as unknown as [string, string, string, string];
			const tag = name.toLowerCase();
			const step = closing
				? attrs.trim() === ''
					? closeTag(open, tag)
					: { code: 'bad_attribute' as const, tag }
				: openTag(open, tag, attrs);
			if (typeof step !== 'string') return fail(step);
			preview += step;
			i += whole.length;
		} else if (ch === '&') {
			const match = ENTITY.exec(raw.slice(i));
			const decoded = match ? decodeEntity(match[1]!) : null;
			if (!match || decoded === null) return fail({ code: 'bad_entity', entity: raw.slice(i, i + 10) });
			plain += decoded;
			preview += escapeHtml(decoded);
			i += match[0].length;
		} else if (ch === '>') {
			return fail({ code: 'stray_angle' });
		} else {
			plain += ch;
			preview += ch;
			i++;
		}
	}
	if (open.length > 0) return fail({ code: 'unbalanced', tag: open[open.length - 1]! });
	if (plain.trim() === '') return fail({ code: 'empty' });
	if (plain.length > maxChars) return fail({ code: 'too_long', length: plain.length, max: maxChars });
	return { ok: true, plainText: plain, previewHtml: preview };
}

function fail(problem: HtmlProblem): ParsedHtml {
	return { ok: false, problem };
}

function openTag(open: string[], tag: string, rawAttrs: string): string | HtmlProblem {
	const known = SIMPLE_TAGS.has(tag) || KNOWN_WITH_ATTRIBUTES.has(tag);
	if (!known) return { code: 'unknown_tag', tag };
	if (!ATTRIBUTES.test(rawAttrs)) return { code: 'bad_attribute', tag };
	const attrs = readAttributes(rawAttrs);
	const safe = safeOpening(tag, attrs);
	if (safe === undefined) return { code: 'bad_attribute', tag };
	open.push(tag);
	return safe;
}

function closeTag(open: string[], tag: string): string | HtmlProblem {
	if (open[open.length - 1] !== tag) return { code: 'unbalanced', tag };
	open.pop();
	return `</${tag}>`;
}

const KNOWN_WITH_ATTRIBUTES = new Set(['a', 'span', 'tg-emoji']);

/** The tag as the preview shows it, or undefined when Telegram would refuse it. */
function safeOpening(tag: string, attrs: Map<string, string>): string | undefined {
	const only = (...names: string[]) => [...attrs.keys()].every((name) => names.includes(name));
	if (tag === 'a') {
		const href = attrs.get('href') ?? '';
		return only('href') && /^(https?:\/\/|tg:\/\/)[^\s"<>]+$/i.test(href)
			? `<a href="${escapeHtml(href)}" rel="noopener noreferrer" target="_blank">`
			: undefined;
	}
	if (tag === 'span')
		return only('class') && attrs.get('class') === 'tg-spoiler' ? '<span class="tg-spoiler">' : undefined;
	if (tag === 'tg-emoji')
		return only('emoji-id') && /^\d+$/.test(attrs.get('emoji-id') ?? '') ? '<tg-emoji>' : undefined;
	if (tag === 'code') {
		const language = attrs.get('class');
		if (!only('class')) return undefined;
		if (language === undefined) return '<code>';
		return /^language-[a-z0-9_+-]+$/i.test(language) ? `<code class="${language}">` : undefined;
	}
	if (tag === 'blockquote') return only('expandable') ? '<blockquote>' : undefined;
	if (!SIMPLE_TAGS.has(tag)) return undefined;
	return attrs.size === 0 ? `<${tag}>` : undefined;
}

function readAttributes(raw: string): Map<string, string> {
	const attrs = new Map<string, string>();
	for (const match of raw.matchAll(ATTRIBUTE)) attrs.set(match[1]!.toLowerCase(), decodeAttribute(match[2] ?? ''));
	return attrs;
}

function decodeAttribute(value: string): string {
	return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, body: string) => decodeEntity(body) ?? whole);
}

function decodeEntity(body: string): string | null {
	if (body.startsWith('#')) {
		const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
		return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : null;
	}
	return NAMED[body.toLowerCase()] ?? null;
}

export function escapeHtml(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
