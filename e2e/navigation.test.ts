import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Portal } from './support/portal';
import {
  freshPage,
  navItem,
  open,
  seedStorage,
  signedInPage,
  tokenKey,
  verifiedOnlyItems,
  visible,
  waitForPath,
} from './support/screens';
import { describeInBrowser } from './support/suite';

const searchBox = (page: Page) => page.getByRole('combobox', { name: 'Search the navigation' });

/** Waits for the shell, then lists which of `names` the sidebar shows. */
async function shownItems(page: Page, names: readonly string[]): Promise<string[]> {
  await visible(navItem(page, 'Profile'));
  const shown: string[] = [];
  for (const name of names) if ((await navItem(page, name).count()) > 0) shown.push(name);
  return shown;
}

/**
 * Opens `path` as if typed into the address bar and tells whether the app refused it: it either
 * says why (`saying`: the page is not for this account, the company awaits verification, has no
 * issuer status) or leaves the path.
 */
async function refusesTyped(
  page: Page,
  portal: Portal,
  path: string,
  saying = 'This page is not available to your account',
): Promise<boolean> {
  await open(page, portal, path);
  const saysNo = page.getByText(saying);
  const left = page.waitForURL((url) => url.pathname !== path).then(() => true);
  const said = saysNo.waitFor().then(() => true);
  return Promise.race([left, said]).catch(() => false);
}

const awaitingVerification = 'Your company is awaiting verification';

const allGatedItems = [...verifiedOnlyItems, 'Funding Rounds', 'Cap Table'];

describeInBrowser('navigation', (suite) => {
  it('hides the verified-only items from an unverified company and refuses them in the address bar', async () => {
    const company = await suite.portal.registerCompany();
    const { context, page } = await signedInPage(suite.browser, suite.portal, company, '/');
    await waitForPath(page, '/profile');
    expect(await shownItems(page, allGatedItems)).toEqual([]);
    await visible(navItem(page, 'Logout'));
    await open(page, suite.portal, '/customers/all');
    await page.getByRole('link', { name: 'Open your profile' }).click();
    await waitForPath(page, '/profile');
    for (const path of ['/customers/all', '/transactions/all', '/fundingrounds']) {
      expect(await refusesTyped(page, suite.portal, path, awaitingVerification)).toBe(true);
      expect(await page.getByText('Access denied').count()).toBe(0);
      expect(await page.getByText(/^No (customers|transactions|funding rounds) yet$/).count()).toBe(
        0,
      );
    }
    await context.close();
  });

  it('shows a verified company its items, but Funding Rounds only to an issuer', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    const { context, page } = await signedInPage(suite.browser, suite.portal, company, '/');
    await waitForPath(page, '/customers/all');
    expect(await shownItems(page, allGatedItems)).toEqual([...verifiedOnlyItems]);
    expect(
      await refusesTyped(
        page,
        suite.portal,
        '/fundingrounds',
        'Your company does not have issuer status',
      ),
    ).toBe(true);
    await open(page, suite.portal, '/transactions');
    await waitForPath(page, '/transactions/all');
    await visible(page.getByText('No transactions yet'));
    await context.close();

    await suite.portal.makeIssuer(company);
    const issuer = await signedInPage(suite.browser, suite.portal, company, '/');
    await waitForPath(issuer.page, '/customers/all');
    expect(await shownItems(issuer.page, allGatedItems)).toEqual(allGatedItems);
    await navItem(issuer.page, 'Funding Rounds').click();
    await waitForPath(issuer.page, '/fundingrounds');
    await issuer.context.close();
  });

  it('suggests at most 10 navigation items, says "No results.." when none match, and opens a chosen one', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    await suite.portal.makeIssuer(company);
    const { context, page } = await signedInPage(suite.browser, suite.portal, company, '/');
    await waitForPath(page, '/customers/all');
    // A verified issuer has more than ten pages in the navigation; an empty query matches them all.
    const pages = await page.getByRole('navigation').getByRole('link').count();
    expect(pages).toBeGreaterThan(10);
    const box = searchBox(page);
    await box.click();
    await expect.poll(() => page.getByRole('option').count()).toBe(10);
    await box.fill('zzqx');
    await visible(page.getByText('No results..'));
    expect(await page.getByRole('option').count()).toBe(0);
    await box.fill('subscr');
    await page.getByRole('option', { name: 'Subscriptions' }).click();
    await waitForPath(page, '/subscriptions/all');
    await context.close();
  });

  it('finds a Turkish page by what is typed, whatever its case, i or accents, and names its buttons in Turkish', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    const { context, page } = await freshPage(suite.browser);
    await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale: 'tr' });
    await open(page, suite.portal, '/customers/all');
    const box = page.getByRole('combobox', { name: 'Gezinmede ara' });
    for (const typed of ['işlem', 'İŞLEM', 'islem']) {
      await box.fill(typed);
      await visible(page.getByRole('option', { name: 'İşlemler' }));
    }
    // MUI names the box's open button "Open" unless told.
    expect(await page.getByRole('button', { name: 'Open', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Kapat', exact: true }).count()).toBe(1);
    await context.close();
  });

  it('names the terminals in the sidebar picker as the company named them', async () => {
    const company = await suite.portal.registerCompany();
    for (const [name, deviceId] of [
      ['Front desk', 'POS-001'],
      ['Back office', 'POS-002'],
    ]) {
      await suite.portal.api('POST', '/terminals', {
        token: company.token,
        body: { name, deviceId },
      });
    }
    const { context, page } = await signedInPage(suite.browser, suite.portal, company, '/');
    await waitForPath(page, '/profile');
    const picker = page.getByTestId('sidebar').getByRole('combobox', { name: 'Active terminal' });
    await expect.poll(() => picker.textContent()).toBe('Front desk');
    await picker.click();
    const options = page.getByRole('option');
    await expect.poll(() => options.allTextContents()).toEqual(['Front desk', 'Back office']);
    await options.filter({ hasText: 'Back office' }).click();
    await expect.poll(() => picker.textContent()).toBe('Back office');
    await context.close();
  });

  it("names the open screen in the browser tab: the app bar's title, else its navigation item", async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    await suite.portal.makeIssuer(company);
    const call = <T>(path: string, body?: unknown) =>
      suite.portal.api<T>('POST', path, { token: company.token, body });
    const customer = await call<{ id: string }>('/customers', {
      name: 'Ada',
      lastName: 'Lovelace',
      email: `ada-${company.companySymbol.toLowerCase()}@investors.test`,
    });
    const common = await call<{ id: string }>('/share-classes', {
      name: 'Common',
      kind: 'common',
      votesPerShare: 1,
      authorized: 100_000,
    });
    const round = await call<{ id: string }>('/funding-rounds', {
      name: 'Harbour seed round',
      handle: 'harbour-seed',
      shareClassId: common.id,
      tokenPriceCents: 100,
      raiseAmountCents: 100_000,
      opensAt: new Date(Date.now() - 86_400_000).toISOString(),
      closesAt: new Date(Date.now() + 20 * 86_400_000).toISOString(),
    });
    const { context, page } = await signedInPage(suite.browser, suite.portal, company, '/');
    await waitForPath(page, '/customers/all');
    const tab = () => page.title();
    // A record's name shows once the record has loaded: over a second on a busy machine.
    const afterLoad = { timeout: 10_000 };
    await expect.poll(tab).toBe('Customers · Issuer Portal');
    await navItem(page, 'Dashboard').click();
    await expect.poll(tab).toBe('Dashboard · Issuer Portal');
    await navItem(page, 'Cap Table').click();
    await expect.poll(tab).toBe('Cap Table · Issuer Portal');
    await open(page, suite.portal, `/customers/all/${customer.id}`);
    await expect.poll(tab, afterLoad).toBe('Ada Lovelace · Issuer Portal');
    await open(page, suite.portal, `/fundingrounds/round/${round.id}/harbour-seed`);
    await expect.poll(tab, afterLoad).toBe('Harbour seed round · Issuer Portal');
    await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale: 'ar' });
    await open(page, suite.portal, '/transactions/all');
    await expect.poll(tab).toBe('المعاملات · بوابة المُصدِرين');
    await navItem(page, 'تسجيل الخروج').click();
    await waitForPath(page, '/login');
    await expect.poll(tab).toBe('بوابة المُصدِرين');
    await context.close();
  });

  it.each([
    [
      'English',
      'en',
      'Issuer Portal',
      ['Profile', 'My Profile', 'Dashboard', 'Funding Rounds', 'Cap Table', 'Token Orders'],
    ],
    [
      'Turkish',
      'tr',
      'Issuer Portal',
      [
        'Profil',
        'Profilim',
        'Gösterge Paneli',
        'Fonlama Turları',
        'Hisse Tablosu',
        'Token Siparişleri',
      ],
    ],
    [
      'Arabic',
      'ar',
      'بوابة المُصدِرين',
      ['الملف', 'ملفي الشخصي', 'لوحة المعلومات', 'جولات التمويل', 'جدول الملكية', 'طلبات الرموز'],
    ],
  ] as const)(
    'titles the app bar of the profile, dashboard, funding round, cap table and token order screens as their navigation items (%s)',
    async (_language, locale, portalName, titles) => {
      const company = await suite.portal.registerCompany();
      await suite.portal.verify(company);
      await suite.portal.makeIssuer(company);
      const { context, page } = await freshPage(suite.browser);
      await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale });
      const appBarTitle = () => page.locator('#react-admin-title').textContent();
      const paths = [
        '/profile',
        '/pages/profile',
        '/dashboard',
        '/fundingrounds',
        '/captable',
        '/nftorders/all',
      ];
      // The first screen also signs in and loads the shell: seconds on a busy machine.
      const loaded = { timeout: 15_000 };
      for (const [index, path] of paths.entries()) {
        await open(page, suite.portal, path);
        await expect.poll(appBarTitle, loaded).toBe(titles[index]);
        await expect.poll(() => page.title()).toBe(`${titles[index]} · ${portalName}`);
      }
      await context.close();
    },
  );

  it('speaks of token orders and CSV export with one word each in Turkish, its menu in title case', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    await suite.portal.makeIssuer(company);
    const { context, page } = await freshPage(suite.browser);
    await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale: 'tr' });
    await open(page, suite.portal, '/customers/all');
    await visible(navItem(page, 'Token Siparişleri'));
    // Every word of every menu item starts with a capital, as "Bekleyen Ödemeler" does.
    const labels = await page.getByRole('navigation').getByRole('link').allInnerTexts();
    const lowerWords = labels
      .flatMap((label) => label.trim().split(/\s+/))
      .filter((word) => word[0] !== word[0]?.toLocaleUpperCase('tr'));
    expect(lowerWords).toEqual([]);
    expect(labels).toEqual(expect.arrayContaining(['Denetim Kaydı', 'Hisse Tablosu']));
    // The customers list exports as the other lists do.
    await visible(page.getByRole('button', { name: 'CSV dışa aktar' }));
    // The menu item opens the screen that calls them the same.
    await navItem(page, 'Token Siparişleri').click();
    await visible(page.getByRole('heading', { name: 'Token siparişleri', level: 1 }));
    await context.close();
  });

  it('sends every unknown path to the 404 page', async () => {
    const company = await suite.portal.registerCompany();
    const { context, page } = await signedInPage(suite.browser, suite.portal, company, '/');
    await waitForPath(page, '/profile');
    await open(page, suite.portal, '/no/such/page');
    await waitForPath(page, '/errors/error-404');
    await visible(page.getByText('404').first());
    await context.close();
  });
});
