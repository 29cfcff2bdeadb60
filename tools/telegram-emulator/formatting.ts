import type { MessageEntity } from 'grammy/types';
import { badRequest, type BotApiError } from './errors.ts';

// Telegram turns formatted text into plain text + entities and refuses text it cannot parse.
// Reproducing the refusals matters more than the entities: an unescaped `<` in a guest's name or
// an unescaped `.` in MarkdownV2 is a classic production-only failure.

export interface FormattedText {
	text: string;
	entities: MessageEntity[];
}

type EntityType = MessageEntity['type'];

export function formatText(raw: string, parseMode: string | undefined, given?: unknown): FormattedText {
	if (parseMode === undefined || parseMode === '') {
		return { text: raw, entities: Array.isArray(given) ? (given as MessageEntity[]) : [] };
	}
	switch (parseMode.toLowerCase()) {
		case 'html':
			return parseHtml(raw);
		case 'markdownv2':
			return parseMarkdown(raw, true);
		case 'markdown':
			return parseMarkdown(raw, false);
		default:
			throw badRequest('unsupported parse_mode');
	}
}

function cantParse(detail: string): BotApiError {
	return badRequest(`can't parse entities: ${detail}`);
}

function byteOffset(raw: string, index: number): number {
	return Buffer.byteLength(raw.slice(0, index));
}

// ── HTML ────────────────────────────────────────────────────────────────────

const HTML_TAGS: Record<string, EntityType> = {
	b: 'bold',
	strong: 'bold',
	i: 'italic',
	em: 'italic',
	u: 'underline',
	ins: 'underline',
	s: 'strikethrough',
	strike: 'strikethrough',
	del: 'strikethrough',
	'tg-spoiler': 'spoiler',
	span: 'spoiler',
	a: 'text_link',
	code: 'code',
	pre: 'pre',
	blockquote: 'blockquote',
	'tg-emoji': 'custom_emoji'
};

const NAMED_CHARACTERS: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

interface OpenTag {
	tag: string;
	type: EntityType;
	offset: number;
	attrs: Record<string, string>;
}

interface HtmlScan {
	raw: string;
	text: string;
	entities: MessageEntity[];
	stack: OpenTag[];
}

function parseHtml(raw: string): FormattedText {
	const scan: HtmlScan = { raw, text: '', entities: [], stack: [] };
	let i = 0;
	while (i < raw.length) {
		const ch = raw[i] as string;
		if (ch === '<') i = readHtmlTag(scan, i);
		else if (ch === '&') i = readCharacterReference(scan, i);
		else {
			scan.text += ch;
			i += 1;
		}
	}
	const open = scan.stack.at(-1);
	if (open) throw cantParse(`Can't find end tag corresponding to start tag "${open.tag}"`);
	return { text: scan.text, entities: sortEntities(scan.entities) };
}

function readCharacterReference(scan: HtmlScan, i: number): number {
	const match = /^&(lt|gt|amp|quot|#\d{1,7}|#x[0-9a-f]{1,6});/i.exec(scan.raw.slice(i, i + 12));
	if (!match) {
		scan.text += '&';
		return i + 1;
	}
	scan.text += decodeReference(match[1] as string);
	return i + match[0].length;
}

function decodeReference(name: string): string {
	if (/^#x/i.test(name)) return String.fromCodePoint(parseInt(name.slice(2), 16));
	if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
	return NAMED_CHARACTERS[name.toLowerCase()] ?? '';
}

function readHtmlTag(scan: HtmlScan, start: number): number {
	const end = scan.raw.indexOf('>', start);
	if (end < 0) throw cantParse(`Can't find end of the tag at byte offset ${byteOffset(scan.raw, start)}`);
	const body = scan.raw.slice(start + 1, end);
	if (body.startsWith('/')) closeHtmlTag(scan, body.slice(1).trim().toLowerCase(), start);
	else openHtmlTag(scan, body, start);
	return end + 1;
}

function openHtmlTag(scan: HtmlScan, body: string, start: number): void {
	const match = /^([a-zA-Z][\w-]*)(\s[\s\S]*)?$/.exec(body);
	const tag = match?.[1]?.toLowerCase() ?? body.split(/\s/)[0] ?? '';
	const attrs = parseAttributes(match?.[2] ?? '');
	const type = match ? HTML_TAGS[tag] : undefined;
	if (!type || (tag === 'span' && attrs.class !== 'tg-spoiler')) {
		throw cantParse(`Unsupported start tag "${tag}" at byte offset ${byteOffset(scan.raw, start)}`);
	}
	scan.stack.push({ tag, type, offset: scan.text.length, attrs });
}

function closeHtmlTag(scan: HtmlScan, tag: string, start: number): void {
	const open = scan.stack.pop();
	if (!open) throw cantParse(`Unexpected end tag at byte offset ${byteOffset(scan.raw, start)}`);
	if (open.tag !== tag) {
		const at = byteOffset(scan.raw, start);
		throw cantParse(`Unmatched end tag at byte offset ${at}, expected "</${open.tag}>", found "</${tag}>"`);
	}
	const parent = scan.stack.at(-1);
	const language = /^language-(.+)$/.exec(open.attrs.class ?? '')?.[1];
	// <pre><code class="language-x"> is one pre entity with a language, as Telegram reports it.
	if (open.tag === 'code' && parent?.tag === 'pre' && language) {
		parent.attrs.language = language;
		return;
	}
	const length = scan.text.length - open.offset;
	if (length > 0) scan.entities.push(buildEntity(open, length));
}

function buildEntity(open: OpenTag, length: number): MessageEntity {
	const { type, offset } = open;
	if (type === 'text_link') return { type, offset, length, url: open.attrs.href ?? '' };
	const { language } = open.attrs;
	if (type === 'pre') return language ? { type, offset, length, language } : { type, offset, length };
	if (type === 'custom_emoji') {
		return { type, offset, length, custom_emoji_id: open.attrs['emoji-id'] ?? '' };
	}
	if (type === 'blockquote' && 'expandable' in open.attrs) {
		return { type: 'expandable_blockquote', offset, length };
	}
	return { type, offset, length } as MessageEntity;
}

function parseAttributes(source: string): Record<string, string> {
	const attrs: Record<string, string> = {};
	const pattern = /([a-zA-Z][\w-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
	for (const match of source.matchAll(pattern)) {
		const value = match[2] ?? match[3] ?? match[4] ?? '';
		attrs[(match[1] as string).toLowerCase()] = value.replace(
			/&(lt|gt|amp|quot|#\d{1,7}|#x[0-9a-f]{1,6});/gi,
			(_, name: string) => decodeReference(name)
		);
	}
	return attrs;
}

// ── Markdown (legacy) and MarkdownV2 ────────────────────────────────────────

const V2_RESERVED = new Set('_*[]()~`>#+-=|{}.!'.split(''));
const ENTITY_NAMES: Partial<Record<EntityType, string>> = {
	bold: 'Bold',
	italic: 'Italic',
	underline: 'Underline',
	strikethrough: 'Strikethrough',
	spoiler: 'Spoiler',
	text_link: 'TextUrl'
};

interface MarkdownScan {
	raw: string;
	v2: boolean;
	text: string;
	entities: MessageEntity[];
	stack: { type: EntityType; offset: number; rawIndex: number }[];
}

function parseMarkdown(raw: string, v2: boolean): FormattedText {
	const scan: MarkdownScan = { raw, v2, text: '', entities: [], stack: [] };
	let i = 0;
	while (i < raw.length) i = readMarkdownToken(scan, i);
	const open = scan.stack.at(-1);
	if (open) {
		const at = byteOffset(raw, open.rawIndex);
		throw cantParse(
			v2
				? `Can't find end of ${ENTITY_NAMES[open.type] ?? 'the'} entity at byte offset ${at}`
				: `Can't find end of the entity starting at byte offset ${at}`
		);
	}
	return { text: scan.text, entities: sortEntities(scan.entities) };
}

function readMarkdownToken(scan: MarkdownScan, i: number): number {
	const { raw, v2 } = scan;
	const ch = raw[i] as string;
	const next = raw[i + 1];
	if (ch === '\\' && next !== undefined && next.charCodeAt(0) < 127) {
		scan.text += next;
		return i + 2;
	}
	if (ch === '`') return readMarkdownCode(scan, i);
	if (ch === '*') return toggle(scan, 'bold', i, 1);
	if (ch === '_' && v2 && next === '_') return toggle(scan, 'underline', i, 2);
	if (ch === '_') return toggle(scan, 'italic', i, 1);
	if (v2 && ch === '~') return toggle(scan, 'strikethrough', i, 1);
	if (v2 && ch === '|' && next === '|') return toggle(scan, 'spoiler', i, 2);
	if (ch === '[') {
		scan.stack.push({ type: 'text_link', offset: scan.text.length, rawIndex: i });
		return i + 1;
	}
	if (ch === ']' && scan.stack.at(-1)?.type === 'text_link' && next === '(') return closeLink(scan, i);
	if (v2 && ch === '>' && (i === 0 || raw[i - 1] === '\n')) return i + 1;
	if (v2 && V2_RESERVED.has(ch)) {
		throw cantParse(`Character '${ch}' is reserved and must be escaped with the preceding '\\'`);
	}
	scan.text += ch;
	return i + 1;
}

function toggle(scan: MarkdownScan, type: EntityType, i: number, width: number): number {
	const top = scan.stack.at(-1);
	if (top?.type === type) {
		scan.stack.pop();
		const length = scan.text.length - top.offset;
		if (length > 0) scan.entities.push({ type, offset: top.offset, length } as MessageEntity);
	} else if (!scan.v2 && top) {
		// Legacy Markdown cannot nest: the marker is literal text inside another entity.
		scan.text += scan.raw.slice(i, i + width);
	} else {
		scan.stack.push({ type, offset: scan.text.length, rawIndex: i });
	}
	return i + width;
}

function closeLink(scan: MarkdownScan, i: number): number {
	const open = scan.stack.pop();
	let j = i + 2;
	let url = '';
	while (j < scan.raw.length && scan.raw[j] !== ')') {
		if (scan.raw[j] === '\\' && j + 1 < scan.raw.length) j += 1;
		url += scan.raw[j];
		j += 1;
	}
	if (j >= scan.raw.length || !open) {
		throw cantParse(`Can't find end of a url at byte offset ${byteOffset(scan.raw, i)}`);
	}
	const length = scan.text.length - open.offset;
	if (length > 0) scan.entities.push({ type: 'text_link', offset: open.offset, length, url });
	return j + 1;
}

function readMarkdownCode(scan: MarkdownScan, i: number): number {
	const fence = scan.raw.startsWith('```', i) ? '```' : '`';
	let j = i + fence.length;
	let content = '';
	while (j < scan.raw.length && !scan.raw.startsWith(fence, j)) {
		if (scan.v2 && scan.raw[j] === '\\' && j + 1 < scan.raw.length) j += 1;
		content += scan.raw[j];
		j += 1;
	}
	if (j >= scan.raw.length) {
		throw cantParse(`Can't find end of the entity starting at byte offset ${byteOffset(scan.raw, i)}`);
	}
	let language: string | undefined;
	const firstLine = /^([\w+-]+)\n/.exec(content);
	if (fence === '```' && firstLine) {
		language = firstLine[1];
		content = content.slice(firstLine[0].length);
	}
	const offset = scan.text.length;
	scan.text += content;
	if (content.length > 0) {
		scan.entities.push(
			fence === '```'
				? { type: 'pre', offset, length: content.length, language }
				: { type: 'code', offset, length: content.length }
		);
	}
	return j + fence.length;
}

function sortEntities(entities: MessageEntity[]): MessageEntity[] {
	return entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
}

/** Entities Telegram detects in what users type; grammY's command filter needs bot_command. */
export function detectUserEntities(text: string): MessageEntity[] {
	const command = /^\/[a-zA-Z0-9_]{1,32}(@[a-zA-Z0-9_]{3,64})?/.exec(text);
	return command ? [{ type: 'bot_command', offset: 0, length: command[0].length }] : [];
}
