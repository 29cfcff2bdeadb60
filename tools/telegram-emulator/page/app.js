import { api, subscribe } from './api.js';
import { ChatPanel } from './chat-panel.js';
import { IdentityController } from './identity.js';
import { renderStickerSetPreview } from './render.js';

// The emulator's page: a person plays a guest (private chat with the bot, opened from a deep
// link like a QR code would) or a sales group member. Live updates come over SSE.

const config = JSON.parse(document.querySelector('meta[name="emulator-config"]').content);
const START_PAYLOAD = /^[A-Za-z0-9_-]{1,64}$/;

const toast = document.getElementById('toast');
const alertDialog = document.getElementById('alert-dialog');
let toastTimer;

/** Callback answers: a toast, or a modal alert when the bot asked for show_alert. */
function notify(text, alert = false) {
	if (alert && typeof alertDialog.showModal === 'function') {
		document.getElementById('alert-text').textContent = text;
		alertDialog.showModal();
		return;
	}
	toast.textContent = text;
	toast.hidden = false;
	clearTimeout(toastTimer);
	toastTimer = setTimeout(() => (toast.hidden = true), 4000);
}

const guestRoot = document.getElementById('panel-guest');
const groupRoot = document.getElementById('panel-group');

const guestIdentity = new IdentityController(guestRoot, {
	kind: 'guest',
	onChange: () => void guestChat.refresh()
});
const memberIdentity = new IdentityController(groupRoot, {
	kind: 'member',
	groupId: config.sales_group_id,
	onChange: () => void groupChat.refresh()
});

const guestChat = new ChatPanel(guestRoot, {
	chatId: () => guestIdentity.current()?.id ?? null,
	identity: guestIdentity,
	notify
});
const groupChat = new ChatPanel(groupRoot, {
	chatId: () => config.sales_group_id,
	identity: memberIdentity,
	notify,
	showSender: true,
	allowReply: true
});

// ── Tabs (WAI-ARIA tabs pattern: arrow keys move between tabs) ──

const tabs = [...document.querySelectorAll('[role="tab"]')];

function selectTab(tab) {
	for (const other of tabs) {
		const selected = other === tab;
		other.setAttribute('aria-selected', String(selected));
		other.tabIndex = selected ? 0 : -1;
		document.getElementById(other.getAttribute('aria-controls')).hidden = !selected;
	}
	tab.focus();
}

for (const tab of tabs) {
	tab.addEventListener('click', () => selectTab(tab));
	tab.addEventListener('keydown', (event) => {
		const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
		if (step) selectTab(tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length]);
	});
}

// ── Deep link: /?start=<payload> or /start/<payload> ──

function setUpDeepLink() {
	const payload = config.start_payload ?? new URLSearchParams(location.search).get('start');
	if (payload === null) return;
	const valid = START_PAYLOAD.test(payload);
	document.getElementById('deep-link').hidden = false;
	document.getElementById('deep-link-payload').textContent = payload;
	document.getElementById('deep-link-warning').hidden = valid;
	const start = document.getElementById('deep-link-start');
	start.addEventListener('click', async () => {
		start.disabled = true;
		await guestChat.send(valid ? `/start ${payload}` : '/start');
		document.getElementById('deep-link').hidden = true;
		history.replaceState(null, '', '/');
		document.getElementById('guest-text').focus();
	});
	start.focus();
}

async function showStickerSetPage() {
	if (!config.sticker_set) return;
	const view = document.getElementById('sticker-set-view');
	view.hidden = false;
	const set = await api.stickerSet(config.sticker_set);
	view.replaceChildren(renderStickerSetPreview(config.sticker_set, set));
}

// ── Live updates ──

let refreshTimer;
function refreshSoon(panel) {
	clearTimeout(panel.refreshTimer);
	panel.refreshTimer = setTimeout(() => void panel.refresh(), 30);
}

subscribe({
	open: () => {
		clearTimeout(refreshTimer);
		refreshTimer = setTimeout(() => [guestChat, groupChat].forEach((panel) => void panel.refresh()), 30);
	},
	message: (event) => {
		if (event.bot.toLowerCase() !== config.bot_username.toLowerCase()) return;
		if (event.chat_id === guestIdentity.current()?.id) refreshSoon(guestChat);
		if (event.chat_id === config.sales_group_id) refreshSoon(groupChat);
	},
	callback_answer: (event) => {
		guestChat.onCallbackAnswer(event);
		groupChat.onCallbackAnswer(event);
	},
	sticker_set: (event) => {
		for (const panel of [guestChat, groupChat]) {
			panel.forgetStickerSet(event.name);
			refreshSoon(panel);
		}
		void showStickerSetPage();
	},
	reset: () => [guestChat, groupChat].forEach(refreshSoon)
});

document.getElementById('group-privacy-hint').hidden = !config.group_privacy;
setUpDeepLink();
void showStickerSetPage();
void guestChat.refresh();
void groupChat.refresh();
