import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Company } from './support/portal';
import { issuerScreens } from './support/portalScreens';
import { open, signedInPage, visible } from './support/screens';
import { describeInBrowser } from './support/suite';

/** What has the keyboard's focus: its accessible name (or text), whether it is on screen, and whether it sits in a dialog. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return undefined;
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    return {
      name: (
        element.getAttribute('aria-label') ??
        // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is its name
        element.innerText ??
        element.getAttribute('name') ??
        ''
      ).trim(),
      onScreen:
        box.width > 0 &&
        box.height > 0 &&
        box.bottom > 0 &&
        box.right > 0 &&
        box.top < window.innerHeight &&
        box.left < window.innerWidth &&
        style.visibility !== 'hidden',
      inDialog: element.closest('[role=dialog]') !== null,
    };
  });

describeInBrowser('the keyboard alone', (suite) => {
  /** The company's customers list at 1280 px, signed in. */
  const customersList = (company: Company) =>
    signedInPage(suite.browser, suite.portal, company, '/customers/all', {
      width: 1280,
      height: 800,
    });

  it('reaches the customers list’s actions with Tab, each on screen when focused, and keeps the focus inside an open dialog', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    await suite.portal.api('POST', '/customers', {
      token: company.token,
      body: { email: 'ada@keys.test', name: 'Ada', starred: false },
    });
    const { context, page } = await customersList(company);
    await visible(page.getByText('ada@keys.test'));

    const reached: string[] = [];
    for (let press = 0; press < 80 && !reached.includes('Add customer'); press++) {
      await page.keyboard.press('Tab');
      const now = await focused(page);
      if (!now) continue;
      expect(now.onScreen, `"${now.name}" is off screen when it has the focus`).toBe(true);
      reached.push(now.name);
    }
    expect(reached).toContain('Add customer');

    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await visible(dialog);
    for (let press = 0; press < 25; press++) {
      await page.keyboard.press('Tab');
      expect((await focused(page))?.inDialog, 'the focus left the open dialog').toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await focused(page))?.name).toBe('Add customer');
    await context.close();
  }, 90_000);

  it('keeps the focus where Tab moved it when the navigation search arrives late', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    const { context, page } = await customersList(company);
    // The full search loads on first focus; hold its script back, as a slow network would.
    let requested = false;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/assets/NavigationAutocomplete-*.js', async (route) => {
      requested = true;
      await held;
      await route.continue();
    });
    await page.getByRole('combobox', { name: 'Search the navigation' }).focus();
    await expect.poll(() => requested).toBe(true);
    await page.keyboard.press('Tab');
    const movedTo = (await focused(page))?.name;
    expect(movedTo).not.toBe('Search the navigation');

    release();
    await page.locator('.MuiAutocomplete-root').waitFor();
    await page.waitForTimeout(300);
    expect((await focused(page))?.name).toBe(movedTo);
    await context.close();
  }, 90_000);

  it('on every screen of an issuer, Tab moves through controls that are each on screen when focused', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    await suite.portal.makeIssuer(company);
    const customer = await suite.portal.api<{ id: string }>('POST', '/customers', {
      token: company.token,
      body: { email: 'grace@keys.test', name: 'Grace', starred: false },
    });
    const { context, page } = await signedInPage(suite.browser, suite.portal, company, '/profile', {
      width: 1280,
      height: 800,
    });
    const offScreen: string[] = [];
    for (const path of issuerScreens(customer.id)) {
      await open(page, suite.portal, path);
      await page
        .getByRole('navigation')
        .first()
        .waitFor()
        .catch((error: Error) => {
          throw new Error(`${path}: no navigation (${error.message.split('\n')[0]})`);
        });
      await page.waitForTimeout(500);
      let reached = 0;
      for (let press = 0; press < 30; press++) {
        await page.keyboard.press('Tab');
        const now = await focused(page);
        if (!now) continue;
        reached += 1;
        if (!now.onScreen) offScreen.push(`${path}: "${now.name}"`);
      }
      expect(reached, `nothing on ${path} takes the keyboard's focus`).toBeGreaterThan(5);
    }
    expect(offScreen).toEqual([]);
    await context.close();
  }, 180_000);
});
