import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, finishAnimations } from './fixtures.ts';

/**
 * The WCAG A/AA violations of the page as it is (or of the part `include` selects), in both colour
 * schemes: every rule in the light one, then in the dark one the rules a scheme can change (the
 * colours; names, roles and structure are the same markup). Checked with nothing moving (a toast
 * or dialog fading in, colours changing with the scheme: half-painted, they would fail contrast):
 * the scheme is awaited and every transition brought to its end first. A toast on screen must be
 * held (hovered) or dismissed first: its timer would take it away mid-check.
 */
export async function violations(page: Page, include?: string): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    // The app follows the system's scheme (its 'System' theme), then the colours transition.
    await expect(page.locator('html')).toHaveCSS('color-scheme', colorScheme);
    await finishAnimations(page);
    const analyze = (inPage: boolean) => {
      const axe = new AxeBuilder({ page });
      if (include) axe.include(include);
      if (colorScheme === 'light') axe.withTags(['wcag2a', 'wcag2aa']);
      else axe.withRules(['color-contrast', 'link-in-text-block']);
      if (inPage) axe.setLegacyMode();
      return axe.analyze();
    };
    // By default axe checks each frame apart and puts the results together in a blank page it opens
    // for the purpose, so that frames of other origins are checked too: half a second a check. A
    // page without frames gets the same rules over the same document from axe.run in the page.
    const frameless = page.frames().length === 1;
    let results = await analyze(frameless);
    // A frame that came in the meantime is checked as any other.
    if (frameless && page.frames().length > 1) results = await analyze(false);
    for (const violation of results.violations)
      found.push(
        `${colorScheme} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      );
  }
  return found;
}
