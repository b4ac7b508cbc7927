import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Company, Portal } from './support/portal';
import {
  freshPage,
  insideWindow,
  open,
  seedStorage,
  sidewaysOverflow,
  tokenKey,
  visible,
} from './support/screens';
import { describeInBrowser } from './support/suite';

const phone = { width: 390, height: 844 };
const desktop = { width: 1280, height: 900 };

/** As long as a real Turkish investment adviser's address and company name get. */
const longEmail = (suffix: string) =>
  `sukru.caglayan.ozturkoglu.yatirim.danismanligi.${suffix}@uzun-alan-adi-ornegi.com.tr`;
const longCompany = 'Öztürkoğlu Yatırım ve Danışmanlık Hizmetleri Ltd. Şti.';
const phoneNumber = '+90 532 123 45 67';

/**
 * A verified issuer named like a Turkish company (its name ends in a full stop) whose customer
 * Şükrü holds 1,500,000 of the 1,850,400 shares issued (81.063554 %), Ayşe 250,400 and Fatma 100,000
 * (5.4 %).
 */
async function issuerWithLongCustomer(portal: Portal) {
  const suffix = randomUUID().slice(0, 6);
  const company = await portal.registerCompany({
    companyName: `Anadolu Teknoloji ${suffix.toUpperCase()} A.Ş.`,
  });
  await portal.verify(company);
  await portal.makeIssuer(company);
  const call = <T>(method: string, path: string, body?: unknown) =>
    portal.api<T>(method, path, { token: company.token, body });
  const sukru = await call<{ id: string }>('POST', '/customers', {
    name: 'Şükrü Çağlayan',
    lastName: 'Öztürkoğlu',
    email: longEmail(suffix),
    phone: phoneNumber,
    company: longCompany,
    jobTitle: 'Yönetim Kurulu Başkan Yardımcısı',
  });
  const ayse = await call<{ id: string }>('POST', '/customers', {
    name: 'Ayşe Yılmaz',
    email: `ayse-${suffix}@ornek.com.tr`,
  });
  const fatma = await call<{ id: string }>('POST', '/customers', {
    name: 'Fatma Demir',
    email: `fatma-${suffix}@ornek.com.tr`,
  });
  const common = await call<{ id: string }>('POST', '/share-classes', {
    name: 'Adi Hisse',
    kind: 'common',
    votesPerShare: 1,
    authorized: 10_000_000,
  });
  for (const [customer, shares] of [
    [sukru, 1_500_000],
    [ayse, 250_400],
    [fatma, 100_000],
  ] as const) {
    await call('POST', '/issuances', {
      shareClassId: common.id,
      customerId: customer.id,
      shares,
      reason: 'Kurucu payı',
    });
  }
  return { company, customerId: sukru.id };
}

async function openAs(
  portal: Portal,
  browser: Parameters<typeof freshPage>[0],
  company: Company,
  locale: string,
  path: string,
  viewport: { width: number; height: number },
) {
  const opened = await freshPage(browser, viewport);
  await seedStorage(opened.page, portal, { [tokenKey]: company.token, locale });
  await open(opened.page, portal, path);
  return opened;
}

/** The value shown under a label in the customer's details. */
const detail = (page: Page, label: string) =>
  page
    .locator('dt', { hasText: new RegExp(`^${label.replace(/[()]/g, '\\$&')}$`) })
    .locator('+ dd');

/** The details' values that do not show all of their text (cut off by their box or the card). */
const clippedValues = (page: Page) =>
  page.locator('dl dd').evaluateAll((values) =>
    values
      .filter((value) => {
        const card = value.closest('.MuiCard-root')?.getBoundingClientRect();
        const box = value.getBoundingClientRect();
        return (
          value.scrollWidth > value.clientWidth + 1 ||
          (card !== undefined && (box.right > card.right + 1 || box.left < card.left - 1))
        );
      })
      .map((value) => value.textContent),
  );

/**
 * Where the first and the last character of `text` are drawn (their left edges), inside `within`:
 * read left to right, the first is left of the last.
 */
const drawnEnds = (within: Locator, text: string) =>
  within.evaluate((root, needle) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(needle) ?? -1;
      if (at < 0) continue;
      const charLeft = (offset: number) => {
        const range = document.createRange();
        range.setStart(node, offset);
        range.setEnd(node, offset + 1);
        return range.getBoundingClientRect().left;
      };
      return { first: charLeft(at), last: charLeft(at + needle.length - 1) };
    }
    throw new Error(`"${needle}" is not in one text node`);
  }, text);

/** The `dir` attribute nearest around the text `text` inside `within` (none: null). */
const ownDirection = (within: Locator, text: string) =>
  within.evaluate((root, needle) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.textContent?.includes(needle))
        return node.parentElement?.closest('[dir]')?.getAttribute('dir') ?? null;
    }
    throw new Error(`"${needle}" is not in one text node`);
  }, text);

/** Whether the element is drawn on one line (an inline box broken over lines has a rect per line). */
const onOneLine = (locator: Locator) =>
  locator.evaluate((element) => element.getClientRects().length === 1);

describeInBrowser('customer page', (suite) => {
  it.each([
    [
      'Turkish at 390 px',
      'tr',
      phone,
      'E-posta',
      'Şirket',
      'Token bakiyesi',
      'Sahiplik (%)',
      '1.500.000',
      '%81,06',
    ],
    [
      'Turkish at 1280 px',
      'tr',
      desktop,
      'E-posta',
      'Şirket',
      'Token bakiyesi',
      'Sahiplik (%)',
      '1.500.000',
      '%81,06',
    ],
    [
      'English at 1280 px',
      'en',
      desktop,
      'Email',
      'Company',
      'Token balance',
      'Ownership (%)',
      '1,500,000',
      '81.06%',
    ],
  ] as const)(
    'wraps a long e-mail and company, and writes numbers in the language (%s)',
    async (_language, locale, viewport, emailLabel, companyLabel, balanceLabel, ownershipLabel, balance, ownership) => {
      const { company, customerId } = await issuerWithLongCustomer(suite.portal);
      const { context, page } = await openAs(
        suite.portal,
        suite.browser,
        company,
        locale,
        `/customers/all/${customerId}`,
        viewport,
      );
      // The balance and ownership follow the shares issued: a moment after the customer.
      await expect
        .poll(
          async () => {
            await page.reload();
            await visible(page.locator('dl dd').first());
            const shown = detail(page, ownershipLabel);
            return (await shown.count()) > 0 ? shown.textContent() : '';
          },
          { timeout: 20_000 },
        )
        .toBe(ownership);
      expect(await detail(page, balanceLabel).textContent()).toBe(balance);
      expect(await detail(page, ownershipLabel).textContent()).toBe(ownership);
      expect(await detail(page, emailLabel).textContent()).toContain('uzun-alan-adi-ornegi.com.tr');
      expect(await detail(page, companyLabel).textContent()).toBe(longCompany);
      expect(await clippedValues(page)).toEqual([]);
      expect(await sidewaysOverflow(page)).toEqual([]);
      // The heading's e-mail wraps within the window instead of widening the page.
      expect(await insideWindow(page.getByTestId('customer-email'))).toBe(true);
      // The history's before → after is written the same way.
      await visible(
        page
          .getByTestId('history-entry')
          .filter({ hasText: `0 → ${balance}` })
          .first(),
      );
      await context.close();
    },
  );

  it('keeps a phone number, an e-mail and names in their own order in Arabic, on a phone', async () => {
    const { company, customerId } = await issuerWithLongCustomer(suite.portal);
    const { context, page } = await openAs(
      suite.portal,
      suite.browser,
      company,
      'ar',
      `/customers/all/${customerId}`,
      phone,
    );
    await visible(detail(page, 'الهاتف'));
    const phoneEnds = await drawnEnds(detail(page, 'الهاتف'), phoneNumber);
    expect(phoneEnds.first).toBeLessThan(phoneEnds.last);
    // Digits and spaces alone have no direction of their own: some browsers would take the Arabic
    // page's and draw "67 45 123 532 90+". The number is set left to right explicitly.
    expect(await ownDirection(detail(page, 'الهاتف'), phoneNumber)).toBe('ltr');
    expect(await ownDirection(page.getByTestId('customer-email'), 'uzun-alan-adi')).toBe('ltr');
    expect(await insideWindow(page.getByTestId('customer-email'))).toBe(true);
    // The company's full stop stays after "Şti", not in front of the name.
    const companyEnds = await drawnEnds(detail(page, 'الشركة'), 'Şti.');
    expect(companyEnds.first).toBeLessThan(companyEnds.last);
    // The company acting in the history: its closing full stop stays at its end (the right).
    const entry = page.getByTestId('history-entry').first();
    await visible(entry.getByText(company.companyName));
    const actorEnds = await drawnEnds(entry, 'A.Ş.');
    expect(actorEnds.first).toBeLessThan(actorEnds.last);
    expect(await clippedValues(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toEqual([]);
    await context.close();
  });
});

describeInBrowser('percentages in Turkish', (suite) => {
  it.each([
    ['cap table', '/captable', '[aria-labelledby=captable-title]'],
    ['dashboard', '/dashboard', '[data-testid=dashboard-holders] table'],
  ] as const)(
    'writes the %s holders\' percentages "%81,06" on one line at 390 px',
    async (_screen, path, table) => {
      const { company } = await issuerWithLongCustomer(suite.portal);
      const { context, page } = await openAs(
        suite.portal,
        suite.browser,
        company,
        'tr',
        path,
        phone,
      );
      const holders = page.locator(table).first().locator('tbody tr');
      await expect
        .poll(async () => (await holders.allInnerTexts()).join('\n'), { timeout: 20_000 })
        .toContain('%5,4');
      const rows = (await holders.allInnerTexts()).join('\n');
      expect(rows).toContain('%81,06');
      expect(rows).not.toMatch(/\d[ \u00a0\u202f]?%/);
      for (const percent of ['%81,06', '%13,53', '%5,4']) {
        const shown = page.locator(table).first().getByText(percent, { exact: true });
        expect(await onOneLine(shown)).toBe(true);
      }
      expect(await sidewaysOverflow(page)).toEqual([]);
      await context.close();
    },
  );
});
