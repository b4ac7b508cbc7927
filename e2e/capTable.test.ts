import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Portal } from './support/portal';
import {
  dateField,
  freshPage,
  open,
  seedStorage,
  sidewaysOverflow,
  tokenKey,
  typeDate,
  visible,
} from './support/screens';
import { describeInBrowser } from './support/suite';

const desktop = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };

/** A verified issuer whose cap table holds Ada's 750 and Grace's 250 common shares (Ada's were all hers on 10 January). */
async function issuerWithCapTable(portal: Portal) {
  const company = await portal.registerCompany();
  await portal.verify(company);
  await portal.makeIssuer(company);
  const token = company.token;
  const customer = (name: string) =>
    portal.api<{ id: string }>('POST', '/customers', {
      token,
      body: { name, email: `${name.toLowerCase()}-${Date.now().toString(36)}@holders.test` },
    });
  const ada = await customer('Ada');
  const grace = await customer('Grace');
  const common = await portal.api<{ id: string }>('POST', '/share-classes', {
    token,
    body: { name: 'Common', kind: 'common', votesPerShare: 1, authorized: 10_000 },
  });
  await portal.api('POST', '/issuances', {
    token,
    body: {
      shareClassId: common.id,
      customerId: ada.id,
      shares: 1000,
      date: '2026-01-10',
      reason: 'Founder grant',
    },
  });
  await portal.api('POST', '/transfers', {
    token,
    body: {
      shareClassId: common.id,
      fromCustomerId: ada.id,
      toCustomerId: grace.id,
      shares: 250,
      date: '2026-02-10',
      reason: 'Secondary sale',
    },
  });
  return company;
}

const rows = (page: Page) =>
  page
    .getByRole('table', { name: /Cap table|Hisse tablosu|جدول الملكية/ })
    .locator('tbody tr')
    .allInnerTexts();

describeInBrowser('cap table', (suite) => {
  it.each([
    [
      'English',
      'en',
      desktop,
      'As of',
      'No shares issued by this date',
      { newClass: 'New share class', name: 'Name', save: 'Save' },
    ],
    [
      'Arabic',
      'ar',
      phone,
      'بتاريخ',
      'لم تُصدر أسهم حتى هذا التاريخ',
      { newClass: 'فئة أسهم جديدة', name: 'الاسم', save: 'حفظ' },
    ],
  ] as const)(
    'shows holders × classes now and as of a day, and creates a class, in %s, without sideways scroll',
    async (_language, locale, viewport, asOfLabel, empty, texts) => {
      const company = await issuerWithCapTable(suite.portal);
      const { context, page } = await freshPage(suite.browser, viewport);
      await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale });
      await open(page, suite.portal, '/captable');
      await visible(page.getByRole('table', { name: /Cap table|جدول الملكية/ }));
      await expect.poll(() => rows(page)).toHaveLength(2);
      const now = await rows(page);
      expect(now[0]).toContain('Ada');
      expect(now[1]).toContain('Grace');
      expect(await sidewaysOverflow(page)).toEqual([]);
      expect(await page.evaluate(() => (document.body.textContent ?? '').includes('%{'))).toBe(
        false,
      );

      await typeDate(dateField(page, asOfLabel), '2026-01-15');
      await page.waitForURL((url) => url.search.includes('asOf=2026-01-15'));
      await expect.poll(() => rows(page)).toHaveLength(1);
      expect((await rows(page))[0]).toContain('Ada');
      await typeDate(dateField(page, asOfLabel), '2026-01-01');
      await visible(page.getByText(empty));
      expect(await sidewaysOverflow(page)).toEqual([]);

      await page.getByRole('button', { name: texts.newClass }).click();
      const dialog = page.getByRole('dialog');
      // The API refuses a name in use; corrected, the same dialog saves (a new request, so not
      // refused again as a reuse of the first one's Idempotency-Key).
      const name = dialog.getByLabel(texts.name, { exact: true });
      await name.fill('Common');
      await dialog.getByRole('button', { name: texts.save }).click();
      await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
      await name.fill('Series A Preferred');
      await dialog.getByRole('button', { name: texts.save }).click();
      await dialog.waitFor({ state: 'hidden' });
      await open(page, suite.portal, '/captable');
      await visible(page.getByRole('cell', { name: 'Series A Preferred' }));
      await context.close();
    },
  );
});

describeInBrowser('cap table on a phone', (suite) => {
  it('keeps each holder in view while many share classes scroll under it, in Arabic', async () => {
    const company = await issuerWithCapTable(suite.portal);
    for (const name of ['Series A Preferred', 'Series B Preferred', 'Employee options'])
      await suite.portal.api('POST', '/share-classes', {
        token: company.token,
        body: { name, kind: 'preferred', votesPerShare: 1, authorized: 10_000 },
      });
    const { context, page } = await freshPage(suite.browser, phone);
    await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale: 'ar' });
    await open(page, suite.portal, '/captable');
    const holders = page.getByRole('table', { name: /جدول الملكية/ });
    await visible(holders.getByRole('columnheader', { name: 'Employee options' }));
    const scroller = page.getByTestId('captable-scroller');
    const widths = await scroller.evaluate((box) => [box.scrollWidth, box.clientWidth]);
    expect(widths[0]).toBeGreaterThan((widths[1] ?? 0) + 100);
    // Right to left: the far end of the scroll is its most negative position.
    await scroller.evaluate((box) => box.scrollTo({ left: -box.scrollWidth }));
    const inView = async (cell: ReturnType<Page['locator']>) => {
      const [box, shown] = await Promise.all([scroller.boundingBox(), cell.boundingBox()]);
      return (
        !!box && !!shown && shown.x >= box.x - 1 && shown.x + shown.width <= box.x + box.width + 1
      );
    };
    expect(await inView(holders.getByRole('columnheader', { name: 'Employee options' }))).toBe(
      true,
    );
    expect(await inView(holders.getByRole('cell', { name: 'Ada', exact: true }))).toBe(true);
    expect(await inView(holders.getByRole('columnheader', { name: 'المالك' }))).toBe(true);
    expect(await sidewaysOverflow(page)).toEqual([]);
    await context.close();
  });
});

describeInBrowser('cap table header', (suite) => {
  it('keeps its title and buttons on one line each, in Turkish at 1280 px', async () => {
    const company = await issuerWithCapTable(suite.portal);
    const { context, page } = await freshPage(suite.browser, desktop);
    await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale: 'tr' });
    await open(page, suite.portal, '/captable');
    const title = page.getByRole('heading', { name: 'Hisse tablosu', level: 1 });
    await visible(title);
    const oneLine = async (element: ReturnType<Page['getByRole']>) => {
      const lineHeight = await element.evaluate((node) =>
        Number.parseFloat(getComputedStyle(node).lineHeight),
      );
      const box = await element.boundingBox();
      return box !== null && box.height < lineHeight * 1.5 + 16;
    };
    expect(await oneLine(title)).toBe(true);
    expect(await oneLine(page.getByRole('button', { name: 'CSV dışa aktar' }))).toBe(true);
    expect(await oneLine(page.getByRole('button', { name: 'Yeni hisse sınıfı' }))).toBe(true);
    await context.close();
  });

  it.each([
    ['Turkish', 'tr', 'Tarih itibarıyla', '15.01.2026'],
    ['English', 'en', 'As of', '01/15/2026'],
    ['Arabic', 'ar', 'بتاريخ', '15/01/2026'],
  ] as const)(
    'takes the as-of day in the order %s writes dates, whatever the browser’s language, and asks only for whole days',
    async (_language, locale, asOfLabel, written) => {
      const company = await issuerWithCapTable(suite.portal);
      const { context, page } = await freshPage(suite.browser, desktop);
      expect(await page.evaluate(() => navigator.language)).toBe('en-US');
      const asked: string[] = [];
      page.on('request', (request) => {
        const asOf = new URL(request.url()).searchParams.get('asOf');
        if (request.url().includes('/api/cap-table') && asOf) asked.push(asOf);
      });
      await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale });
      await open(page, suite.portal, '/captable');
      const field = dateField(page, asOfLabel);
      const historyBefore = await page.evaluate(() => history.length);
      await typeDate(field, '2026-01-15');
      await page.waitForURL((url) => url.search.includes('asOf=2026-01-15'));
      // The day replaces the address: Back leaves the cap table instead of stepping through days.
      expect(await page.evaluate(() => history.length)).toBe(historyBefore);
      // What the reader sees in the field: its sections and separators (MUI's class for them).
      const shown = await field
        .locator('.MuiPickersSectionList-root')
        .evaluate((sections) =>
          (sections.textContent ?? '').replace(/[\u200e\u200f\u2066-\u2069]/g, ''),
        );
      expect(shown).toBe(written);
      await expect.poll(() => rows(page)).toHaveLength(1);
      // Typing the year passes through 0002, 0020 and 0202: none of them is asked for.
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.every((asOf) => asOf.startsWith('2026-01-15'))).toBe(true);
      await context.close();
    },
  );
});
