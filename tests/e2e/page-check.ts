import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

/**
 * One page's accessibility check for the browser tests: axe with the WCAG 2.1 A and AA rules at a
 * laptop's width and at a phone's, and a full-page screenshot at each. The screenshots are
 * attached to the test, so they land in Playwright's results folder (.tmp/playwright-results,
 * the folder to keep as a run's artefact) and in its HTML report.
 */
export const VIEWPORTS = [
	{ name: 'laptop', width: 1366, height: 900 },
	{ name: 'phone', width: 390, height: 844 }
] as const;

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * A page that is still loading its live data shows "Loading …" (LiveState) with aria-busy. A page
 * may also be mid-transition: a toast that just appeared fades in, and axe measures the contrast of
 * its half-transparent text. So this also waits for every finite animation and transition (endless
 * ones, such as spinners, never finish and are left alone).
 */
export async function waitUntilSettled(page: Page): Promise<void> {
	await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
	await page.evaluate(async () => {
		// Two frames, so a transition that a just-mounted element starts on its first frame has begun.
		for (let frame = 0; frame < 2; frame++) await new Promise((done) => requestAnimationFrame(done));
		const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
		await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
	});
}

/** Serious and critical violations, one line each: rule, what it asks, and the elements that break it. */
export async function seriousViolations(page: Page): Promise<string[]> {
	const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
	return results.violations
		.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		.map(
			(v) =>
				`${v.id} (${v.impact}): ${v.help} — ${v.nodes
					.slice(0, 6)
					.map((n) => n.target.join(' '))
					.join(', ')}${v.nodes.length > 6 ? ` and ${v.nodes.length - 6} more` : ''}`
		);
}

/**
 * Checks the page that is open now at both widths and attaches its screenshots as
 * `<name>-laptop.png` and `<name>-phone.png`. Fails (softly, so every page of a run is reported)
 * with every serious or critical violation, and when the page is wider than the window.
 */
export async function checkPage(page: Page, testInfo: TestInfo, name: string): Promise<void> {
	for (const viewport of VIEWPORTS) {
		await page.setViewportSize({ width: viewport.width, height: viewport.height });
		await waitUntilSettled(page);
		const violations = await seriousViolations(page);
		expect.soft(violations, `axe on ${name} at ${viewport.width} px:\n${violations.join('\n')}`).toEqual([]);
		// A phone scrolls a wide table inside its own box, never the whole page sideways.
		await expectNoSidewaysScroll(page, `${name} scrolls sideways at ${viewport.width} px`, { soft: true });
		const file = testInfo.outputPath(`${name}-${viewport.name}.png`);
		await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
		await testInfo.attach(`${name} at ${viewport.width}×${viewport.height}`, { path: file, contentType: 'image/png' });
	}
	await page.setViewportSize({ width: VIEWPORTS[0].width, height: VIEWPORTS[0].height });
}

/** How far the page scrolls sideways, in px (0 or less when it fits its window). */
function sidewaysScroll(page: Page): Promise<number> {
	return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/**
 * The page does not scroll sideways once its layout has settled. A chart redraws for a new window
 * width in its ResizeObserver's callback, a frame or more after the resize (longer on a busy
 * machine), and until then the page can be as wide as before: measured at once, a 390 px window
 * once read 687 px too wide in a fresh-clone run. So this measures until it fits or the assertion's time is up.
 */
export async function expectNoSidewaysScroll(
	page: Page,
	message: string,
	options: { soft?: boolean } = {}
): Promise<void> {
	await expect
		.configure({ soft: options.soft ?? false })
		.poll(() => sidewaysScroll(page), { message })
		.toBeLessThanOrEqual(0);
}

/** On a phone: `target` is shown whole within the screen's width, and the page does not scroll sideways. */
export async function expectWithinPhoneWidth(page: Page, target: Locator): Promise<void> {
	const width = VIEWPORTS[1].width;
	await expect(target).toBeVisible();
	const box = (await target.boundingBox())!;
	expect(box.x).toBeGreaterThanOrEqual(0);
	expect(box.x + box.width).toBeLessThanOrEqual(width);
	await expectNoSidewaysScroll(page, `the page scrolls sideways at ${width} px`);
}
