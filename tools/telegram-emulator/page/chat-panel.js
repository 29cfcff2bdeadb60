import { api } from './api.js';
import { el, renderMessage, renderStickerSetPreview } from './render.js';

// One chat on screen (the guest's private chat or the sales group): its messages, the composer,
// inline buttons and the bot's reply keyboard. Re-rendering keeps unchanged messages in place so
// keyboard focus and scrolling survive live updates.

function signature(view) {
	return `${view.edit_count}:${view.deleted}:${view.pinned}`;
}

export class ChatPanel {
	/** `chatId()` → the chat shown; `identity` → who writes; `notify(text, alert)` shows answers. */
	constructor(root, { chatId, identity, notify, showSender = false, allowReply = false }) {
		this.chatId = chatId;
		this.identity = identity;
		this.notify = notify;
		this.showSender = showSender;
		this.allowReply = allowReply;
		this.list = root.querySelector('[data-role="messages"]');
		this.composer = root.querySelector('[data-role="composer"]');
		this.textarea = this.composer.querySelector('textarea');
		this.replyKeyboard = root.querySelector('[data-role="reply-keyboard"]');
		this.replying = root.querySelector('[data-role="replying"]');
		this.items = new Map();
		this.pendingPresses = new Map();
		this.earlyAnswers = new Map();
		this.stickerSets = new Map();
		this.replyTo = null;
		this.rendered = false;
		this.composer.addEventListener('submit', (event) => {
			event.preventDefault();
			void this.sendFromComposer();
		});
		this.textarea.addEventListener('keydown', (event) => {
			if (event.key === 'Enter' && !event.shiftKey) {
				event.preventDefault();
				this.composer.requestSubmit();
			}
		});
		const cancelReply = root.querySelector('[data-role="replying-cancel"]');
		cancelReply.addEventListener('click', () => this.setReplyTo(null));
	}

	async refresh() {
		const chatId = this.chatId();
		const views = chatId === null ? [] : await api.messages(chatId);
		this.render(views);
	}

	render(views) {
		// Follow new messages unless the person scrolled up to read older ones.
		const nearBottom = !this.rendered || this.isNearBottom();
		this.rendered = views.length > 0;
		const focused = this.list.contains(document.activeElement) ? document.activeElement : null;
		const focusedId = focused?.closest('[data-message-id]')?.dataset.messageId;
		const next = new Map();
		const nodes = views.map((view) => {
			const known = this.items.get(view.message_id);
			const item = known && known.signature === signature(view) ? known.item : this.renderItem(view);
			next.set(view.message_id, { item, signature: signature(view) });
			return item;
		});
		if (nodes.length === 0) nodes.push(el('li', { class: 'empty' }, 'No messages yet.'));
		this.list.replaceChildren(...nodes);
		this.items = next;
		this.restoreFocus(focusedId);
		this.showReplyKeyboard(views);
		if (nearBottom) this.list.scrollTop = this.list.scrollHeight;
	}

	isNearBottom() {
		return this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 80;
	}

	renderItem(view) {
		return renderMessage(view, {
			showSender: this.showSender,
			onPress: (message, button, node) => void this.press(message, button, node),
			onReply: this.allowReply ? (message) => this.setReplyTo(message) : undefined,
			renderStickerSet: (name) => this.stickerSetPreview(name)
		});
	}

	/** If the focused message was re-rendered (an edit), focus its new first button or itself. */
	restoreFocus(messageId) {
		if (messageId === undefined || this.list.contains(document.activeElement)) return;
		const item = this.list.querySelector(`[data-message-id="${CSS.escape(messageId)}"]`);
		(item?.querySelector('button, a') ?? item)?.focus();
	}

	showReplyKeyboard(views) {
		if (!this.replyKeyboard) return;
		// The latest keyboard (or removal) the bot sent stays until it sends another.
		const last = views.findLast((view) => view.from_bot && (view.reply_keyboard || view.remove_keyboard));
		const rows = last?.reply_keyboard ?? [];
		this.replyKeyboard.hidden = rows.length === 0;
		const button = (text) => {
			const node = el('button', { type: 'button', class: 'inline-button' }, text);
			node.addEventListener('click', () => void this.send(text));
			return node;
		};
		this.replyKeyboard.replaceChildren(...rows.map((row) => el('div', { class: 'row' }, ...row.map(button))));
	}

	stickerSetPreview(name) {
		const slot = el('div', { class: 'sticker-set-slot', 'aria-busy': 'true' }, 'Loading sticker set…');
		const cached = this.stickerSets.get(name);
		const load = cached ?? api.stickerSet(name);
		this.stickerSets.set(name, load);
		const show = (content) => {
			const follow = this.isNearBottom();
			slot.replaceChildren(content);
			slot.removeAttribute('aria-busy');
			if (follow) this.list.scrollTop = this.list.scrollHeight;
		};
		load.then(
			(set) => show(renderStickerSetPreview(name, set)),
			() => show('Could not load the sticker set')
		);
		return slot;
	}

	forgetStickerSet(name) {
		this.stickerSets.delete(name);
		this.items.clear(); // re-render previews on the next refresh
	}

	setReplyTo(view) {
		this.replyTo = view;
		if (!this.replying) return;
		this.replying.hidden = view === null;
		const quoted = (view?.text ?? view?.caption ?? 'message').slice(0, 60);
		this.replying.querySelector('[data-role="replying-text"]').textContent = view ? `Replying to: ${quoted}` : '';
		if (view) this.textarea.focus();
	}

	async sendFromComposer() {
		const text = this.textarea.value.trim();
		if (!text) return;
		await this.send(text);
		this.textarea.value = '';
	}

	async send(text) {
		const user = await this.identity.ensure();
		const input = { user: { ...user, is_bot: undefined }, chat_id: this.chatId() ?? user.id, text };
		if (this.replyTo) input.reply_to_message_id = this.replyTo.message_id;
		try {
			await api.send(input);
			this.setReplyTo(null);
		} catch (error) {
			this.notify(`Not sent: ${error.message}`, true);
		}
		await this.refresh();
	}

	async press(view, button, node) {
		const user = await this.identity.ensure();
		node.setAttribute('aria-busy', 'true');
		node.classList.add('pressed');
		try {
			const { callback_query_id: id } = await api.press({
				user_id: user.id,
				chat_id: view.chat_id,
				message_id: view.message_id,
				callback_data: button.callback_data
			});
			// Telegram apps show a spinner until the bot answers the query; so do we, for 10 s at most.
			this.pendingPresses.set(id, node);
			setTimeout(() => this.settlePress(id), 10_000);
			// A quick bot may have answered before the press request itself came back.
			const early = this.earlyAnswers.get(id);
			if (early) this.onCallbackAnswer(early);
		} catch (error) {
			this.notify(`Button failed: ${error.message}`, true);
			this.settleNode(node);
		}
	}

	/** A callback answer for this panel: stop the spinner, show the text like Telegram does. */
	onCallbackAnswer(event) {
		if (event.user_id !== this.identity.current()?.id) return;
		if (!this.pendingPresses.has(event.callback_query_id)) {
			this.earlyAnswers.set(event.callback_query_id, event);
			setTimeout(() => this.earlyAnswers.delete(event.callback_query_id), 10_000);
			return;
		}
		this.earlyAnswers.delete(event.callback_query_id);
		this.settlePress(event.callback_query_id);
		if (event.text) this.notify(event.text, event.show_alert);
	}

	settlePress(id) {
		const node = this.pendingPresses.get(id);
		this.pendingPresses.delete(id);
		if (node) this.settleNode(node);
	}

	settleNode(node) {
		node.removeAttribute('aria-busy');
		node.classList.remove('pressed');
	}
}
