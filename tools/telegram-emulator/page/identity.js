import { api } from './api.js';
import { displayName, el } from './render.js';

// Who the person at the page is: a guest writing to the bot, or a member of the sales group.
// The choice lives in localStorage, so a reload (or a deep link) keeps the same Telegram user.

const LANGUAGES = ['ru', 'uz', 'en'];

function browserLanguage() {
	const code = (navigator.language ?? 'en').slice(0, 2).toLowerCase();
	return LANGUAGES.includes(code) ? code : 'en';
}

function describe(user) {
	const parts = [displayName(user)];
	if (user.username) parts.push(`@${user.username}`);
	if (user.language_code) parts.push(user.language_code);
	return parts.join(' · ');
}

export class IdentityController {
	/** `kind`: 'guest' or 'member'; members are users of group `groupId`. */
	constructor(root, { kind, groupId, onChange }) {
		this.kind = kind;
		this.groupId = groupId;
		this.onChange = onChange;
		this.storageKey = `telegram-emulator:${kind}`;
		this.label = root.querySelector('[data-role="identity-label"]');
		this.toggle = root.querySelector('[data-role="identity-toggle"]');
		this.panel = root.querySelector('[data-role="identity-panel"]');
		this.select = root.querySelector('[data-role="existing"]');
		this.form = root.querySelector('[data-role="identity-form"]');
		const fields = document.getElementById('identity-fields').content.cloneNode(true);
		this.form.querySelector('[data-role="identity-fields"]').replaceWith(fields);
		this.form.elements.language_code.value = browserLanguage();
		this.toggle.addEventListener('click', () => this.setOpen(this.panel.hidden));
		this.select.addEventListener('change', () => this.choose(this.select.value));
		this.form.addEventListener('submit', (event) => {
			event.preventDefault();
			void this.createFromForm();
		});
		this.showLabel();
	}

	current() {
		try {
			return JSON.parse(localStorage.getItem(this.storageKey) ?? 'null');
		} catch {
			return null;
		}
	}

	/** The current user, creating a default one first if there is none yet. */
	async ensure() {
		const existing = this.current();
		if (existing) return existing;
		const suffix = String(Math.floor(1000 + Math.random() * 9000));
		const name = this.kind === 'guest' ? `Guest ${suffix}` : `Manager ${suffix}`;
		return this.create({ first_name: name, language_code: browserLanguage() });
	}

	async create(input) {
		const user = await api.createUser(input);
		if (this.kind === 'member') await api.addMember(this.groupId, user.id);
		this.remember(user);
		return user;
	}

	remember(user) {
		localStorage.setItem(this.storageKey, JSON.stringify(user));
		this.showLabel();
		this.onChange(user);
	}

	showLabel() {
		const user = this.current();
		const nobody = this.kind === 'guest' ? 'No guest yet' : 'No member chosen';
		this.label.textContent = user ? `You are ${describe(user)}` : nobody;
	}

	async setOpen(open) {
		this.panel.hidden = !open;
		this.toggle.setAttribute('aria-expanded', String(open));
		if (open) {
			await this.loadChoices();
			this.form.elements.first_name.focus();
		}
	}

	async loadChoices() {
		const users =
			this.kind === 'guest'
				? await api.users()
				: (await api.group(this.groupId)).members.map((member) => member.user).filter(Boolean);
		const current = this.current();
		this.select.replaceChildren(el('option', { value: '' }, users.length ? 'Choose…' : 'Nobody yet'));
		for (const user of users) {
			const option = el('option', { value: String(user.id), selected: user.id === current?.id });
			this.select.append(option);
			option.textContent = `${describe(user)} (id ${user.id})`;
		}
		this.users = users;
	}

	choose(id) {
		const user = (this.users ?? []).find((candidate) => String(candidate.id) === id);
		if (!user) return;
		this.remember(user);
		void this.setOpen(false);
	}

	async createFromForm() {
		const data = Object.fromEntries(new FormData(this.form));
		const input = { first_name: data.first_name.trim(), language_code: data.language_code };
		if (data.last_name.trim()) input.last_name = data.last_name.trim();
		if (data.username.trim()) input.username = data.username.trim().replace(/^@/, '');
		await this.create(input);
		this.form.reset();
		this.form.elements.language_code.value = browserLanguage();
		await this.setOpen(false);
		this.toggle.focus();
	}
}
