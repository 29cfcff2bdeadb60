import { z } from 'zod';
import { SETTING_NAMES, type SettingName } from '../../settings/runtime-setting-defs.ts';
import { changeSetting, resetSetting } from '../../settings/runtime-setting-change.ts';
import { readSettingFields } from '../../settings/runtime-setting-view.ts';
import { readProviderRefusal } from '../../settings/provider-refusal.ts';
import { readBotTokenRefusal } from '../../settings/bot-token-refusal.ts';
import {
	clearSecret,
	readSecretViews,
	replaceSecret,
	SECRET_NAMES,
	type SecretName
} from '../../settings/console-secrets.ts';
import { loadSettingsSecretKey } from '../../settings/secret-box.ts';
import { adminProcedure, router } from '../init.ts';

const settingName = z.enum(SETTING_NAMES as [SettingName, ...SettingName[]]);
const secretName = z.enum(SECRET_NAMES as [SecretName, ...SecretName[]]);

/**
 * The Settings page (docs/console.md "Settings"): the owner only, reads included — the values name
 * the sales group and the admins' Telegram ids. Each change is audited with the value before and after.
 */
export const settingsRouter = router({
	list: adminProcedure.query(async ({ ctx }) => ({
		fields: await readSettingFields(ctx.db, ctx.config),
		/** The worker's refusal of a provider or model set here (an unknown model id), until a change it accepts. */
		providerRefusal: await readProviderRefusal(ctx.db),
		/** Telegram's refusal of the bot token saved here (the worker kept its bot), until a token it takes. */
		botTokenRefusal: await readBotTokenRefusal(ctx.db).then((r) => r && { at: r.at, sentence: r.sentence }),
		/** Never the values: where each secret comes from and who replaced it when. */
		secrets: await readSecretViews(ctx.db, ctx.config)
	})),

	set: adminProcedure
		.input(z.object({ name: settingName, text: z.string().max(2000) }))
		.mutation(({ ctx, input }) => changeSetting(ctx, ctx.actor, input.name, input.text)),

	reset: adminProcedure
		.input(z.object({ name: settingName }))
		.mutation(({ ctx, input }) => resetSetting(ctx, ctx.actor, input.name)),

	/** Stored sealed with the settings key; the answer never carries the value. */
	replaceSecret: adminProcedure
		.input(z.object({ name: secretName, value: z.string().max(500) }))
		.mutation(async ({ ctx, input }) => {
			await replaceSecret(
				{ ...ctx, secretKey: loadSettingsSecretKey(ctx.config, ctx.clock) },
				ctx.actor,
				input.name,
				input.value
			);
			return { replaced: true };
		}),

	clearSecret: adminProcedure
		.input(z.object({ name: secretName }))
		.mutation(async ({ ctx, input }) => ({ cleared: await clearSecret(ctx, ctx.actor, input.name) }))
});
