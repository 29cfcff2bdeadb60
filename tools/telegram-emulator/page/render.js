// DOM for messages. Everything from the emulator is put in with textContent/attributes, never
// as HTML, so a guest's name or a bot's text cannot inject markup.

export function el(tag, attrs = {}, ...children) {
	const node = document.createElement(tag);
	for (const [name, value] of Object.entries(attrs)) {
		if (value === undefined || value === null || value === false) continue;
		node.setAttribute(name, value === true ? '' : String(value));
	}
	node.append(...children.filter((child) => child !== undefined && child !== null));
	return node;
}

const STICKER_LINK = /(?:https?:\/\/)?t\.me\/addstickers\/([A-Za-z0-9_]{1,64})/g;
const URL_IN_TEXT = /https?:\/\/[^\s<>"]+/g;

/** Links a person can follow from the emulator: t.me sticker links open the local preview. */
function safeHref(url) {
	const sticker = /^(?:https?:\/\/)?t\.me\/addstickers\/([A-Za-z0-9_]{1,64})$/.exec(url);
	if (sticker) return `/addstickers/${sticker[1]}`;
	return /^https?:\/\//i.test(url) ? url : null;
}

function link(url, content) {
	const href = safeHref(url);
	if (!href) return content;
	const local = href.startsWith('/');
	const external = local ? {} : { target: '_blank', rel: 'noopener noreferrer' };
	return el('a', { href, ...external }, content);
}

function linkify(text) {
	const fragment = document.createDocumentFragment();
	let last = 0;
	for (const match of text.matchAll(URL_IN_TEXT)) {
		fragment.append(text.slice(last, match.index), link(match[0], match[0]));
		last = match.index + match[0].length;
	}
	fragment.append(text.slice(last));
	return fragment;
}

function wrap(node, entity, segment) {
	switch (entity.type) {
		case 'bold':
			return el('strong', {}, node);
		case 'italic':
			return el('em', {}, node);
		case 'underline':
			return el('u', {}, node);
		case 'strikethrough':
			return el('s', {}, node);
		case 'code':
			return el('code', {}, node);
		case 'pre':
			return el('code', { class: 'pre' }, node);
		case 'spoiler':
			return el('span', { class: 'spoiler', tabindex: '0', title: 'Spoiler' }, node);
		case 'blockquote':
		case 'expandable_blockquote':
			return el('span', { class: 'quote' }, node);
		case 'text_link':
			return link(entity.url, node);
		case 'url':
			return link(segment, node);
		default:
			return node;
	}
}

/** Plain text + Telegram entities (UTF-16 offsets, like JS strings) → formatted DOM. */
export function renderText(text, entities = []) {
	const cuts = new Set([0, text.length]);
	for (const entity of entities) {
		cuts.add(entity.offset);
		cuts.add(entity.offset + entity.length);
	}
	const points = [...cuts].filter((point) => point >= 0 && point <= text.length).sort((a, b) => a - b);
	const fragment = document.createDocumentFragment();
	for (let i = 0; i < points.length - 1; i += 1) {
		const [start, end] = [points[i], points[i + 1]];
		const segment = text.slice(start, end);
		const active = entities.filter((entity) => entity.offset <= start && end <= entity.offset + entity.length);
		const linked = active.some((entity) => entity.type === 'text_link' || entity.type === 'url');
		let node = linked ? document.createTextNode(segment) : linkify(segment);
		for (const entity of active) node = wrap(node, entity, segment);
		fragment.append(node);
	}
	return fragment;
}

export function stickerSetNames(view) {
	const sources = [view.text ?? '', view.caption ?? ''];
	for (const entity of view.entities) if (entity.url) sources.push(entity.url);
	for (const button of view.buttons.flat()) if (button.url) sources.push(button.url);
	const names = new Set();
	for (const source of sources) for (const match of source.matchAll(STICKER_LINK)) names.add(match[1]);
	return [...names];
}

export function displayName(user) {
	if (!user) return 'Unknown';
	return [user.first_name, user.last_name].filter(Boolean).join(' ');
}

function clock(date) {
	return new Date(date * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** Callback buttons are real buttons; URL buttons are links (they leave the chat). */
function renderButton(view, button, onPress) {
	if (button.callback_data !== undefined) {
		const node = el('button', { type: 'button', class: 'inline-button' }, button.text);
		node.addEventListener('click', () => onPress(view, button, node));
		return node;
	}
	const href = button.url ? safeHref(button.url) : null;
	if (!href) return el('span', { class: 'inline-button disabled' }, button.text);
	const external = href.startsWith('/') ? {} : { target: '_blank', rel: 'noopener noreferrer' };
	return el('a', { class: 'inline-button', href, ...external }, `${button.text} ↗`);
}

function renderKeyboard(view, onPress) {
	const keyboard = el('div', { class: 'keyboard', role: 'group', 'aria-label': 'Message buttons' });
	for (const row of view.buttons) {
		keyboard.append(el('div', { class: 'row' }, ...row.map((button) => renderButton(view, button, onPress))));
	}
	return keyboard;
}

/**
 * A sticker as Telegram shows it: a video sticker (WEBM) plays silently in a loop, a static one is
 * an image. `muted` is set as a property too: Chromium autoplays only a muted video, and the
 * attribute alone does not mute an element made by script.
 */
export function stickerNode(sticker, label, attrs = {}) {
	if (!sticker.is_video) return el('img', { src: sticker.url, alt: label, ...attrs });
	const video = el('video', {
		src: sticker.url,
		'aria-label': label,
		autoplay: true,
		loop: true,
		muted: true,
		playsinline: true,
		...attrs
	});
	video.muted = true;
	return video;
}

function renderMedia(view) {
	const nodes = [];
	const { photo, sticker, document: file } = view;
	if (photo) {
		const alt = view.caption ? 'Photo' : 'Photo without caption';
		nodes.push(el('img', { class: 'photo', src: photo.url, alt, width: photo.width, height: photo.height }));
	}
	if (sticker) {
		nodes.push(stickerNode(sticker, `Sticker ${sticker.emoji ?? ''}`.trim(), { class: 'sticker' }));
	}
	if (file) {
		const name = file.file_name ?? 'file';
		nodes.push(el('a', { class: 'document', href: file.url, download: name }, `📎 ${name}`));
	}
	return nodes;
}

/** One chat message as a list item; `options`: onPress, onReply, showSender, renderStickerSet. */
export function renderMessage(view, options) {
	const kind = view.from_bot ? 'from-bot' : 'from-user';
	const item = el('li', { class: `message ${kind}`, 'data-message-id': view.message_id, tabindex: '-1' });
	const bubble = el('div', { class: 'bubble' });
	if (options.showSender) {
		const sender = view.from_bot ? `@${view.from?.username ?? 'bot'}` : displayName(view.from);
		bubble.append(el('div', { class: 'sender' }, sender));
	}
	item.append(bubble);
	if (view.deleted) {
		bubble.append(el('p', { class: 'deleted-note' }, 'Message deleted'));
		return item;
	}
	if (view.reply_to_message_id) {
		bubble.append(el('div', { class: 'reply-quote' }, `↩ in reply to message #${view.reply_to_message_id}`));
	}
	bubble.append(...renderMedia(view));
	const body = view.text ?? view.caption;
	if (body) bubble.append(el('p', { class: 'text' }, renderText(body, view.entities)));
	const meta = [view.pinned ? '📌 pinned' : null, view.edited ? 'edited' : null, clock(view.date)];
	bubble.append(el('div', { class: 'meta' }, meta.filter(Boolean).join(' · ')));
	if (view.buttons.length > 0) item.append(renderKeyboard(view, options.onPress));
	if (options.onReply && view.from_bot) {
		const label = `Reply to message #${view.message_id}`;
		const reply = el('button', { type: 'button', class: 'link-button reply-button', 'aria-label': label }, 'Reply');
		reply.addEventListener('click', () => options.onReply(view));
		item.append(reply);
	}
	for (const name of stickerSetNames(view)) item.append(options.renderStickerSet(name));
	return item;
}

/** A sticker set preview grid; `set` null means Telegram would say the set does not exist. */
export function renderStickerSetPreview(name, set) {
	const box = el('figure', { class: 'sticker-set' });
	if (!set) {
		box.append(el('figcaption', {}, `Sticker set “${name}” not found`));
		return box;
	}
	box.append(el('figcaption', {}, `${set.title} · ${set.stickers.length} stickers`));
	const grid = el('ul', { class: 'sticker-grid', 'aria-label': `Stickers of ${set.title}` });
	for (const sticker of set.stickers) {
		grid.append(el('li', {}, stickerNode(sticker, `Sticker ${sticker.emoji}`, { width: 96, height: 96 })));
	}
	box.append(grid);
	return box;
}
