import { z } from 'zod';
import { recordAudit, type Actor } from '../audit/audit-log.ts';
import type { Config } from '../config/config.ts';
import type { Db, Tx } from '../db/client.ts';
import { DomainError } from '../errors/domain-error.ts';
import type { Clock } from '../time/clock.ts';
import { open, seal, sealedSchema } from './secret-box.ts';
import { deleteSetting, readJsonSetting, writeSetting } from './settings.repository.ts';

/**
 * The secrets an owner may replace on the Settings page. Stored sealed (secret-box.ts) under
 * `secret.<name>` = {iv, tag, data, by, at}; never returned to the browser (the page sees only
 * "set on <date> by <operator>") and never in the audit log (only which secret, by whom).
 */
export const SECRET_DEFS = {
	telegramBotToken: {
		env: 'TELEGRAM_BOT_TOKEN',
		label: 'Telegram bot token',
		hint: 'From @BotFather. The worker checks a new token with Telegram and switches to it within a few seconds, without a restart; a token Telegram refuses is not used.',
		rule: z.string().regex(/^\d+:[\w-]{20,}$/, { message: 'A bot token looks like 123456:ABC… (from @BotFather).' })
	},
	geminiApiKey: {
		env: 'GEMINI_API_KEY',
		label: 'Gemini API key',
		hint: 'The worker checks a new key with Gemini before drawing with it, within a few seconds.',
		rule: z.string().regex(/^\S{20,200}$/, { message: 'An API key is one word of 20 to 200 characters.' })
	},
	openaiApiKey: {
		env: 'OPENAI_API_KEY',
		label: 'OpenAI API key',
		hint: 'The worker checks a new key with OpenAI before drawing with it, within a few seconds.',
		rule: z.string().regex(/^\S{20,200}$/, { message: 'An API key is one word of 20 to 200 characters.' })
	}
} as const;

export type SecretName = keyof typeof SECRET_DEFS;
export const SECRET_NAMES = Object.keys(SECRET_DEFS) as SecretName[];
export type SecretsInForce = { [K in SecretName]: string | undefined };

const rowSchema = sealedSchema.extend({ by: z.string(), at: z.string() });
const keyOf = (name: SecretName) => `secret.${name}`;

export interface SecretView {
	name: SecretName;
	label: string;
	hint: string;
	env: string;
	/** console: replaced on the console; environment: the variable is set; none: neither. */
	origin: 'console' | 'environment' | 'none';
	setBy: string | null;
	setAt: string | null;
}

const envValue = (config: Config, name: SecretName): string | undefined =>
	name === 'telegramBotToken'
		? config.TELEGRAM_BOT_TOKEN
		: name === 'geminiApiKey'
			? config.GEMINI_API_KEY
			: config.OPENAI_API_KEY;

/** What the page shows of each secret: where it comes from and who set it, never the value. */
export async function readSecretViews(db: Db, config: Config): Promise<SecretView[]> {
	return Promise.all(
		SECRET_NAMES.map(async (name) => {
			const row = await readJsonSetting(db, keyOf(name), rowSchema);
			const def = SECRET_DEFS[name];
			const origin = row ? 'console' : envValue(config, name) ? 'environment' : 'none';
			return {
				name,
				label: def.label,
				hint: def.hint,
				env: def.env,
				origin,
				setBy: row?.by ?? null,
				setAt: row?.at ?? null
			};
		})
	);
}

/** Each secret in force: the console's (opened with the key) where set, else the environment's. */
export async function readSecretsInForce(db: Db | Tx, key: Buffer, config: Config): Promise<SecretsInForce> {
	const entries = await Promise.all(
		SECRET_NAMES.map(async (name) => {
			const row = await readJsonSetting(db, keyOf(name), rowSchema);
			// A row the key cannot open (the key file was replaced) counts as not set: the environment's applies.
			const fromConsole = row ? open(key, row) : null;
			return [name, fromConsole ?? envValue(config, name)] as const;
		})
	);
	return Object.fromEntries(entries) as SecretsInForce;
}

export interface SecretChangeDeps {
	db: Db;
	clock: Clock;
	config: Config;
	secretKey: Buffer;
}

/** The owner replaces a secret: checked by its rule, stored sealed, audited without the value. */
export async function replaceSecret(
	deps: SecretChangeDeps,
	actor: Actor,
	name: SecretName,
	plaintext: string
): Promise<void> {
	const def = SECRET_DEFS[name];
	const value = plaintext.trim();
	const checked = def.rule.safeParse(value);
	if (!checked.success)
		throw new DomainError({
			code: 'SettingRefused',
			label: def.label,
			problem: checked.error.issues[0]?.message ?? 'This value is not valid.'
		});
	if (name === 'telegramBotToken' && deps.config.telegram.mode === 'emulator') {
		throw new DomainError({
			code: 'SettingRefused',
			label: def.label,
			problem:
				'This instance runs against the Telegram emulator: set TELEGRAM_BOT_TOKEN in the environment to run a real bot.'
		});
	}
	await deps.db.$transaction(async (tx) => {
		const row = { ...seal(deps.secretKey, value), by: actor.name, at: deps.clock.now().toISOString() };
		await writeSetting(tx, deps.clock, keyOf(name), JSON.stringify(row));
		await recordAudit(tx, deps.clock, actor, { action: 'secret_replace', details: { secret: name } });
	});
}

/** Back to the environment's value (or none); audited. False when nothing was set on the console. */
export async function clearSecret(
	deps: Pick<SecretChangeDeps, 'db' | 'clock'>,
	actor: Actor,
	name: SecretName
): Promise<boolean> {
	return deps.db.$transaction(async (tx) => {
		if (!(await deleteSetting(tx, keyOf(name)))) return false;
		await recordAudit(tx, deps.clock, actor, { action: 'secret_clear', details: { secret: name } });
		return true;
	});
}

/** Whether a provider's key is there (environment or console), without opening it. */
export async function hasSecret(db: Db | Tx, config: Config, name: SecretName): Promise<boolean> {
	return Boolean(envValue(config, name)) || (await readJsonSetting(db, keyOf(name), rowSchema)) !== null;
}
