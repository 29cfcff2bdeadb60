import { expect, type Page, type Response } from '@playwright/test';

/**
 * Waiting for the console's script. A console page the server rendered is on screen — headings,
 * tables, links — before its script runs; until then a key, a click on a button that only the
 * script answers, or a typed filter does nothing or is lost, as it would be for a person. On a
 * busy machine that moment is long enough for a test to fall into (a sign-in posted before the
 * login page's script ran loads Live from the server, and a shortcut pressed at once was lost in
 * CI). The hint that lists the page keys appears once the script runs, so it is the signal.
 */
export function consoleKeysHint(page: Page) {
	return page.getByRole('contentinfo').filter({ hasText: /^\s*Keys: l Live/ });
}

/** Resolves once the console's script runs on the page in front of us. */
export async function expectConsoleScript(page: Page): Promise<void> {
	await expect(consoleKeysHint(page)).toBeVisible();
}

/** Opens a console page of a signed-in operator and waits until its script runs. */
export async function openConsolePage(page: Page, path: string): Promise<Response | null> {
	const response = await page.goto(path);
	await expectConsoleScript(page);
	return response;
}

/** Presses one of the console's page shortcuts once the keys work. */
export async function pressConsoleKey(page: Page, key: string): Promise<void> {
	await expectConsoleScript(page);
	await page.keyboard.press(key);
}
