import type { Update, UserFromGetMe } from 'grammy/types';
import type { MethodCall, MethodHandler } from '../core.ts';
import { badRequest } from '../errors.ts';
import { readBool, readInt, readJson, readString } from '../params.ts';

function getMe(call: MethodCall): UserFromGetMe {
	return {
		id: call.bot.id ?? 0,
		is_bot: true,
		first_name: call.bot.firstName,
		username: call.bot.username,
		can_join_groups: true,
		can_read_all_group_messages: !call.core.settings.groupPrivacy,
		supports_inline_queries: false,
		can_connect_to_business: false,
		has_main_web_app: false,
		has_topics_enabled: false,
		allows_users_to_create_topics: false,
		can_manage_bots: false
	} as UserFromGetMe;
}

function readAllowedUpdates(call: MethodCall): string[] | undefined {
	const value = readJson(call.params, 'allowed_updates', 'allowed_updates JSON array');
	if (value === undefined) return undefined;
	if (!Array.isArray(value)) throw badRequest("can't parse allowed_updates JSON array");
	return value.map(String);
}

function getUpdates(call: MethodCall): Promise<Update[]> {
	return call.core.queue.poll(
		call.bot,
		{
			offset: readInt(call.params, 'offset'),
			limit: readInt(call.params, 'limit'),
			timeout: readInt(call.params, 'timeout'),
			allowedUpdates: readAllowedUpdates(call)
		},
		call.connection
	);
}

/** Stored so getUpdates answers 409 like Telegram; the emulator does not post to webhooks. */
function setWebhook(call: MethodCall): true {
	const url = readString(call.params, 'url') ?? '';
	if (url !== '' && !/^https:\/\//i.test(url)) {
		throw badRequest('bad webhook: An HTTPS URL must be provided for webhook');
	}
	call.bot.webhookUrl = url;
	const allowed = readAllowedUpdates(call);
	if (allowed) call.bot.allowedUpdates = allowed;
	if (readBool(call.params, 'drop_pending_updates')) call.core.queue.dropPending(call.bot);
	call.core.store.changed();
	return true;
}

function deleteWebhook(call: MethodCall): true {
	call.bot.webhookUrl = '';
	if (readBool(call.params, 'drop_pending_updates')) call.core.queue.dropPending(call.bot);
	call.core.store.changed();
	return true;
}

function getWebhookInfo(call: MethodCall): unknown {
	return {
		url: call.bot.webhookUrl,
		has_custom_certificate: false,
		pending_update_count: call.bot.pending.length,
		allowed_updates: call.bot.allowedUpdates.length > 0 ? call.bot.allowedUpdates : undefined
	};
}

function setMyCommands(call: MethodCall): true {
	const commands = readJson(call.params, 'commands', 'commands JSON object');
	if (!Array.isArray(commands)) throw badRequest("can't parse commands JSON object");
	call.bot.commands = commands;
	call.core.store.changed();
	return true;
}

function deleteMyCommands(call: MethodCall): true {
	call.bot.commands = [];
	call.core.store.changed();
	return true;
}

const accepted: MethodHandler = () => true;

export const updateMethods: Record<string, MethodHandler> = {
	getMe,
	getUpdates,
	setWebhook,
	deleteWebhook,
	getWebhookInfo,
	setMyCommands,
	deleteMyCommands,
	getMyCommands: (call) => call.bot.commands,
	// Cosmetic settings the product may make at start; nothing in the emulator depends on them.
	setMyDescription: accepted,
	setMyShortDescription: accepted,
	setMyName: accepted,
	setChatMenuButton: accepted,
	logOut: accepted,
	close: accepted
};
