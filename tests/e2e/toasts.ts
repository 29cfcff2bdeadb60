import { expect, type Page } from '@playwright/test';

/**
 * The console says how an action went in a toast (svelte-sonner, src/lib/components/ui/notify.ts).
 * Passes when a toast of that kind (success is green, error red) shows exactly `sentence`.
 */
export async function expectToast(
	page: Page,
	sentence: string | RegExp,
	kind: 'success' | 'error' = 'success'
): Promise<void> {
	const titles = page.locator(`[data-sonner-toast][data-type="${kind}"] [data-title]`);
	await expect(titles.filter({ hasText: sentence }).first()).toHaveText(sentence);
}
