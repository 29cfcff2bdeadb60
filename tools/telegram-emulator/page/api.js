// Calls to the emulator's control API, and its live event stream.

async function request(method, path, body) {
	const response = await fetch(`/_emulator/${path}`, {
		method,
		headers: body === undefined ? undefined : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body)
	});
	const data = await response.json().catch(() => null);
	if (!response.ok) {
		const error = new Error(data?.error ?? `${response.status} ${response.statusText}`);
		error.status = response.status;
		throw error;
	}
	return data;
}

export const api = {
	users: () => request('GET', 'users'),
	createUser: (user) => request('POST', 'users', user),
	group: (groupId) => request('GET', `groups/${groupId}`),
	addMember: (groupId, userId) => request('POST', `groups/${groupId}/members`, { user_id: userId }),
	messages: (chatId) => request('GET', `chats/${chatId}/messages`),
	send: (input) => request('POST', 'messages', input),
	press: (input) => request('POST', 'callbacks', input),
	async stickerSet(name) {
		try {
			return await request('GET', `sticker-sets/${encodeURIComponent(name)}`);
		} catch (error) {
			if (error.status === 404) return null;
			throw error;
		}
	}
};

const EVENT_TYPES = ['message', 'callback_answer', 'sticker_set', 'users', 'reset'];

/** Calls handlers[type](event) for every pushed event; EventSource reconnects by itself. */
export function subscribe(handlers) {
	const source = new EventSource('/_emulator/events');
	for (const type of EVENT_TYPES) {
		source.addEventListener(type, (event) => handlers[type]?.(JSON.parse(event.data)));
	}
	source.addEventListener('open', () => handlers.open?.());
	return source;
}
