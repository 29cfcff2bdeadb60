import { createHash } from 'node:crypto';
import type { Config } from '../../lib/server/config/config.ts';
import type { SecretsInForce } from '../../lib/server/settings/console-secrets.ts';
import type { QueueDeps } from '../../lib/server/jobs/run/queue-deps.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import { checkConfiguredModels } from '../../lib/server/providers/model-check.ts';
import { createFallbackProvider, createImageProvider, pricesFor } from '../../lib/server/providers/create-provider.ts';
import type { SettingValues } from '../../lib/server/settings/runtime-setting-defs.ts';
import { clearProviderRefusal, recordProviderRefusal } from '../../lib/server/settings/provider-refusal.ts';
import type { RuntimeSettings } from '../../lib/server/settings/runtime-settings.ts';
import type { Db } from '../../lib/server/db/client.ts';
import type { Clock } from '../../lib/server/time/clock.ts';
import { MINUTE } from '../../lib/server/time/clock.ts';

/** The worker's long-lived parts a setting changes: the queue's slots and admins, the status edits' slots. */
export interface LiveParts {
	queue: QueueDeps;
	statuses: { slots: number };
}

export interface RuntimeApplyDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	runtime: RuntimeSettings;
	/** The API keys in force (console, else environment), opened with the settings key. */
	secrets: () => Promise<SecretsInForce>;
	/** The provider settings in use: the model check and the next swap start from it. */
	providers: ProviderSettingsInUse;
	parts: LiveParts;
	/** The bot token replaced on the console (BotTokenSwitch); absent in emulator mode and in tests without a bot. */
	botToken?: { apply(token: string | undefined): Promise<void> };
}

type ProviderKeys =
	| 'IMAGE_PROVIDER'
	| 'GEMINI_IMAGE_MODEL'
	| 'GEMINI_VISION_MODEL'
	| 'OPENAI_IMAGE_MODEL'
	| 'GEMINI_API_KEY'
	| 'OPENAI_API_KEY';

/**
 * The image provider and its models as this worker draws with them. A console change is not used
 * until the provider has said it knows each model (the same question as the hourly model check):
 * an unknown id is refused with a sentence the Settings page shows, and the old provider keeps
 * drawing. A provider it cannot reach decides nothing; the switch is tried again a minute later.
 */
export class ProviderSettingsInUse {
	#config: Config;
	/** The wanted settings last refused (or unreachable) and when: not asked again each pass. */
	#lastTry: { wanted: string; at: number; unreachable: boolean } | undefined;

	constructor(config: Config) {
		this.#config = config;
	}

	get config(): Config {
		return this.#config;
	}

	wanted(values: SettingValues, secrets: Pick<SecretsInForce, 'geminiApiKey' | 'openaiApiKey'>): Config {
		return {
			...this.#config,
			IMAGE_PROVIDER: values.imageProvider,
			GEMINI_IMAGE_MODEL: values.geminiImageModel,
			GEMINI_VISION_MODEL: values.geminiVisionModel,
			OPENAI_IMAGE_MODEL: values.openaiImageModel,
			GEMINI_API_KEY: secrets.geminiApiKey,
			OPENAI_API_KEY: secrets.openaiApiKey
		};
	}

	/** What tells two provider settings apart; the keys only by a digest (this string is kept in memory only). */
	static key(config: Pick<Config, ProviderKeys>): string {
		const digest = (secret: string | undefined) => (secret ? createHash('sha256').update(secret).digest('hex') : '');
		return [
			config.IMAGE_PROVIDER,
			config.GEMINI_IMAGE_MODEL,
			config.GEMINI_VISION_MODEL,
			config.OPENAI_IMAGE_MODEL,
			digest(config.GEMINI_API_KEY),
			digest(config.OPENAI_API_KEY)
		].join('|');
	}

	/** Whether to ask about `wanted` now: not what is in use, not refused already, not unreachable a moment ago. */
	shouldTry(wanted: Config, now: number): boolean {
		const key = ProviderSettingsInUse.key(wanted);
		if (key === ProviderSettingsInUse.key(this.#config)) return false;
		if (this.#lastTry?.wanted !== key) return true;
		return this.#lastTry.unreachable && now - this.#lastTry.at >= MINUTE;
	}

	tried(wanted: Config, now: number, unreachable: boolean): void {
		this.#lastTry = { wanted: ProviderSettingsInUse.key(wanted), at: now, unreachable };
	}

	use(config: Config): void {
		this.#config = config;
		this.#lastTry = undefined;
	}
}

/** One pass: the settings in force applied to this worker (every 5 s, in every worker: each has its own parts). */
export async function applyRuntimeSettings(deps: RuntimeApplyDeps): Promise<void> {
	const values = await deps.runtime.read();
	const { queue, statuses } = deps.parts;
	if (queue.settings.slots !== values.workerSlots)
		deps.logger.info({ from: queue.settings.slots, to: values.workerSlots }, 'worker slots changed');
	queue.settings.slots = values.workerSlots;
	queue.notices.slots = values.workerSlots;
	statuses.slots = values.workerSlots;
	queue.settings.adminIds = values.adminIds;
	const secrets = await deps.secrets();
	await deps.botToken?.apply(secrets.telegramBotToken);
	await switchProviderWhenChecked(deps, values, secrets);
}

async function switchProviderWhenChecked(
	deps: RuntimeApplyDeps,
	values: SettingValues,
	secrets: SecretsInForce
): Promise<void> {
	const wanted = deps.providers.wanted(values, secrets);
	const now = deps.clock.now().getTime();
	if (!deps.providers.shouldTry(wanted, now)) return;
	const verdicts = await checkConfiguredModels(wanted);
	const refused = verdicts.find((v) => v.answer === 'missing' || v.answer === 'denied');
	if (refused) {
		deps.providers.tried(wanted, now, false);
		const sentence =
			refused.answer === 'missing'
				? `${refused.provider} does not know the model “${refused.model}”, so the worker keeps drawing with ${describe(deps.providers.config)}. Check the id (${refused.setting}).`
				: `${refused.provider} refused our access (${refused.detail ?? 'no detail'}), so the worker keeps drawing with ${describe(deps.providers.config)}.`;
		deps.logger.warn(
			{ setting: refused.setting, model: refused.model, answer: refused.answer },
			'image provider change refused: model check failed'
		);
		await recordProviderRefusal(deps.db, deps.clock, sentence);
		return;
	}
	if (verdicts.some((v) => v.answer === 'unreachable')) {
		deps.providers.tried(wanted, now, true);
		deps.logger.warn('image provider change waits: the provider could not be reached for its model check');
		return;
	}
	const { queue } = deps.parts;
	queue.provider = await createImageProvider(wanted);
	queue.prices = pricesFor(wanted);
	queue.fallback = await createFallbackProvider(wanted);
	deps.providers.use(wanted);
	await clearProviderRefusal(deps.db);
	deps.logger.info({ provider: wanted.IMAGE_PROVIDER }, 'image provider settings changed');
}

function describe(config: Config): string {
	if (config.IMAGE_PROVIDER === 'gemini') return `gemini (${config.GEMINI_IMAGE_MODEL})`;
	if (config.IMAGE_PROVIDER === 'openai') return `openai (${config.OPENAI_IMAGE_MODEL})`;
	return 'the offline provider';
}
