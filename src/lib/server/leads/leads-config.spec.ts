import { describe, expect, it } from 'vitest';
import { isLeadAdmin, leadsSettingsFrom } from './leads-config.ts';

describe('who may press lead buttons', () => {
	const base = { salesGroupChatId: -100123n, salesGroupLanguage: 'uz' as const, adminIds: [1n, 2n] };

	it('is the admins while the list of pressers is empty', () => {
		const settings = leadsSettingsFrom({ ...base, leadPressers: [] });
		expect([isLeadAdmin(settings, 1), isLeadAdmin(settings, 2), isLeadAdmin(settings, 3)]).toEqual([true, true, false]);
		expect(settings).toMatchObject({ chatId: -100123n, locale: 'uz' });
	});

	it('is only the listed pressers once the list is set, admins included only if listed', () => {
		const settings = leadsSettingsFrom({ ...base, leadPressers: [3n] });
		expect([isLeadAdmin(settings, 1), isLeadAdmin(settings, 3)]).toEqual([false, true]);
	});
});
