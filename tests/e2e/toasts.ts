import { expect, type Page } from '@playwright/test';

/**
 * The console says how an action went in a toast (svelte-sonner, src/lib/components/ui/notify.ts).
 * Passes when a toast of that kind (success is green, error red) shows exactly `sentence` inside
 * sonner's "Notifications" region, which is a polite live region: a screen reader reads it out.
 */
export async function expectToast(
	page: Page,
	sentence: string | RegExp,
	kind: 'success' | 'error' = 'success'
): Promise<void> {
	const region = page.getByRole('region', { name: /^Notifications/ });
	await expect(region).toHaveAttribute('aria-live', 'polite');
	const titles = region.locator(`[data-sonner-toast][data-type="${kind}"] [data-title]`);
	await expect(titles.filter({ hasText: sentence }).first()).toHaveText(sentence);
}
