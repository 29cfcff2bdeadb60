import { z } from 'zod';
import { SETTING_NAMES, type SettingName } from '../../settings/runtime-setting-defs.ts';
import { changeSetting, resetSetting } from '../../settings/runtime-setting-change.ts';
import { readSettingFields } from '../../settings/runtime-setting-view.ts';
import { readProviderRefusal } from '../../settings/provider-refusal.ts';
import { adminProcedure, router } from '../init.ts';

const settingName = z.enum(SETTING_NAMES as [SettingName, ...SettingName[]]);

/**
 * The Settings page (docs/console.md "Settings"): the owner only, reads included — the values name
 * the sales group and the admins' Telegram ids. Each change is audited with the value before and after.
 */
export const settingsRouter = router({
	list: adminProcedure.query(async ({ ctx }) => ({
		fields: await readSettingFields(ctx.db, ctx.config),
		/** The worker's refusal of a provider or model set here (an unknown model id), until a change it accepts. */
		providerRefusal: await readProviderRefusal(ctx.db)
	})),

	set: adminProcedure
		.input(z.object({ name: settingName, text: z.string().max(2000) }))
		.mutation(({ ctx, input }) => changeSetting(ctx, ctx.actor, input.name, input.text)),

	reset: adminProcedure.input(z.object({ name: settingName })).mutation(({ ctx, input }) => resetSetting(ctx, ctx.actor, input.name))
});
