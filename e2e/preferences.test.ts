import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  arabic,
  chooseLanguage,
  navItem,
  signedInPage,
  visible,
  waitForPath,
} from './support/screens';
import { describeInBrowser } from './support/suite';

const direction = (page: Page) =>
  page.evaluate(() => ({
    document: getComputedStyle(document.body).direction,
    attribute: document.documentElement.getAttribute('dir'),
  }));

/**
 * The side of a toolbar button's icon that keeps it apart from its label (MUI's 8 px margin):
 * 'right' in left-to-right, 'left' once the right-to-left styles flipped it.
 */
const iconGapSide = (page: Page) =>
  page.evaluate(() => {
    const icon = document.querySelector('.MuiButton-startIcon');
    if (!icon) return 'no icon';
    const { marginLeft, marginRight } = getComputedStyle(icon);
    return marginRight === '8px' ? 'right' : marginLeft === '8px' ? 'left' : 'none';
  });

/** The computed background of the app's main area, which every theme paints. */
const background = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.body).backgroundColor);

describeInBrowser('languages and themes', (suite) => {
  it('switches the whole layout to right-to-left in Arabic, translates the navigation and keeps the choice', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    const { context, page } = await signedInPage(suite.browser, suite.portal, company, '/');
    await waitForPath(page, '/customers/all');
    expect(await direction(page)).toEqual({ document: 'ltr', attribute: 'ltr' });
    await expect.poll(() => iconGapSide(page)).toBe('right');

    await chooseLanguage(page, arabic);
    await expect.poll(() => direction(page)).toEqual({ document: 'rtl', attribute: 'rtl' });
    // Not only the direction: every style is flipped (margins, paddings, positions).
    await expect.poll(() => iconGapSide(page)).toBe('left');
    // The labels follow the direction within a render or two (the customers list re-renders too).
    await expect.poll(() => navItem(page, 'Customers').count()).toBe(0);
    const sidebar = page.getByRole('navigation').first();
    const box = await sidebar.boundingBox();
    const viewport = page.viewportSize();
    // The sidebar moves to the right-hand side.
    expect((box?.x ?? 0) + (box?.width ?? 0) / 2).toBeGreaterThan((viewport?.width ?? 0) / 2);

    await page.reload();
    await expect.poll(() => direction(page)).toEqual({ document: 'rtl', attribute: 'rtl' });
    await expect.poll(() => iconGapSide(page)).toBe('left');
    await context.close();
  });

  it('shows a Latin company name in the Arabic sidebar as written, its final period at its end', async () => {
    const name = 'Anadolu Teknoloji A.Ş.';
    const company = await suite.portal.registerCompany({ companyName: name });
    const { context, page } = await signedInPage(suite.browser, suite.portal, company, '/profile');
    await waitForPath(page, '/profile');
    await chooseLanguage(page, arabic);
    await expect.poll(() => direction(page)).toEqual({ document: 'rtl', attribute: 'rtl' });

    const shown = page.getByTestId('company-name');
    await visible(shown);
    expect(await shown.locator('bdi').textContent()).toBe(name);
    // What the reader sees: the period drawn right of the name's first letter, not left of it
    // (".Anadolu Teknoloji A.Ş" is what a right-to-left line makes of it without isolation).
    const [first, last] = await shown.evaluate((element) => {
      const text = document.createTreeWalker(element, NodeFilter.SHOW_TEXT).nextNode() as Text;
      const left = (offset: number) => {
        const range = document.createRange();
        range.setStart(text, offset);
        range.setEnd(text, offset + 1);
        return range.getBoundingClientRect().left;
      };
      return [left(0), left(text.length - 1)];
    });
    expect(last).toBeGreaterThan(first);
    await context.close();
  });

  it('saves a theme to the user profile, so it follows the user into a new browser', async () => {
    const company = await suite.portal.registerCompany();
    const first = await signedInPage(suite.browser, suite.portal, company, '/');
    await waitForPath(first.page, '/profile');
    const before = await background(first.page);
    await first.page.getByRole('button', { name: 'Theme settings' }).click();
    await first.page.getByRole('radio', { name: 'Default Dark' }).check();
    await expect.poll(() => background(first.page)).not.toBe(before);
    const dark = await background(first.page);
    await first.context.close();

    // Another browser: nothing local survives, only what the server kept.
    const second = await signedInPage(suite.browser, suite.portal, company, '/profile');
    await waitForPath(second.page, '/profile');
    await visible(navItem(second.page, 'Profile'));
    await expect.poll(() => background(second.page)).toBe(dark);
    await second.context.close();
  });
});
