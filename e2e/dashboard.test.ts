import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Company, Portal } from './support/portal';
import {
  freshPage,
  open,
  seedStorage,
  sidewaysOverflow,
  tokenKey,
  visible,
} from './support/screens';
import { describeInBrowser } from './support/suite';

const desktop = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };
const eventually = { timeout: 10_000, interval: 100 };

interface Dashboard {
  customers: number;
  investorStatuses: { status: string; count: number }[];
  balance: { availableCents: number };
  pendingPayments: { count: number; amountCents: number };
  monthlyRecurringRevenue: { amountCents: number; subscriptions: number };
  capTable: { holders: number; topHolders: { name: string | null; shares: number }[] };
  recentActivity: { id: string; eventType: string; amountCents: number | null }[] | null;
  fundingProgress: { available: boolean; series: { at: string; raisedCents: number }[] };
}

const texts = {
  en: {
    title: 'Dashboard',
    kycComplete: 'KYC Complete',
    fundingEmpty: 'No funding rounds yet',
    investorsEmpty: 'No customers yet',
    holdersEmpty: 'No shares issued yet',
    ranges: [
      'This week, from Monday',
      'Last week, Monday to Sunday',
      'Last 14 days, today included',
    ],
    // An event's name, then its record ("Payment captured · Payment · pay_1a2b").
    eventLine: /^[A-Z][a-z-]*( [a-zA-Z-]+)* · /,
  },
  ar: {
    title: 'لوحة المعلومات',
    kycComplete: null,
    fundingEmpty: 'لا توجد جولات تمويل بعد',
    investorsEmpty: 'لا يوجد عملاء بعد',
    holdersEmpty: 'لم تُصدر أسهم بعد',
    ranges: [
      'هذا الأسبوع، منذ يوم الاثنين',
      'الأسبوع الماضي، من الاثنين إلى الأحد',
      'آخر 14 يومًا، بما فيها اليوم',
    ],
    eventLine: /^[\u0600-\u06FF][\u0600-\u06FF ]* · /,
  },
} as const;

/** The funding chart's period buttons: what each shows, and the full wording it is named by. */
const periods = {
  en: [
    ['This week', 'This week, from Monday'],
    ['Last week', 'Last week, Monday to Sunday'],
    ['Last 14 days', 'Last 14 days, today included'],
  ],
  tr: [
    ['Bu hafta', 'Bu hafta, pazartesiden bu yana'],
    ['Geçen hafta', 'Geçen hafta, pazartesiden pazara'],
    ['Son 14 gün', 'Son 14 gün, bugün dahil'],
  ],
  ar: [
    ['هذا الأسبوع', 'هذا الأسبوع، منذ يوم الاثنين'],
    ['الأسبوع الماضي', 'الأسبوع الماضي، من الاثنين إلى الأحد'],
    ['آخر 14 يومًا', 'آخر 14 يومًا، بما فيها اليوم'],
  ],
} as const;

/** A verified issuer with two KYC-complete customers, a paid and a pending payment, a monthly subscription and shares issued. */
async function busyIssuer(portal: Portal) {
  const company = await portal.registerCompany();
  await portal.verify(company);
  await portal.makeIssuer(company);
  const { token } = company;
  const call = <T>(method: string, path: string, body?: unknown) =>
    portal.api<T>(method, path, { token, body });
  const customer = async (name: string) => {
    const made = await call<{ id: string }>('POST', '/customers', {
      name,
      email: `${name.toLowerCase()}-${Date.now().toString(36)}@dashboard.test`,
    });
    for (const status of ['Registered with the product', 'KYC Under Review', 'KYC Complete']) {
      await call('POST', `/customers/${made.id}/investor-status`, { status });
    }
    return made;
  };
  const ada = await customer('Ada');
  await customer('Grace');
  const terminal = await call<{ id: string }>('POST', '/terminals', {
    name: 'Front desk',
    deviceId: `FD-${company.companySymbol}`,
  });
  const paid = await call<{ id: string }>('POST', '/payments', {
    terminalId: terminal.id,
    amountCents: 12_500,
    currency: 'CAD',
  });
  await call('POST', `/terminals/${terminal.id}/simulator/present-card`, {});
  await expect
    .poll(async () => (await call<{ status: string }>('GET', `/payments/${paid.id}`)).status, {
      timeout: 15_000,
      interval: 100,
    })
    .toBe('captured');
  await call('POST', '/payments', { terminalId: terminal.id, amountCents: 4_200, currency: 'CAD' });
  const plan = await call<{ id: string }>('POST', '/plans', {
    name: 'Gold',
    amountCents: 1_500,
    interval: 'month',
  });
  await call('POST', '/subscriptions', { customerId: ada.id, planId: plan.id });
  const common = await call<{ id: string }>('POST', '/share-classes', {
    name: 'Common',
    kind: 'common',
    votesPerShare: 1,
    authorized: 10_000,
  });
  await call('POST', '/issuances', {
    shareClassId: common.id,
    customerId: ada.id,
    shares: 1_000,
    reason: 'Founder grant',
  });
  return { company, terminal };
}

/** A round opened on the company and 300.00 CAD of tokens paid for on its terminal: the money raised. */
async function roundWithMoney(portal: Portal, company: Company, terminalId: string) {
  const { token } = company;
  const call = <T>(method: string, path: string, body?: unknown) =>
    portal.api<T>(method, path, { token, body });
  const tokens = await call<{ id: string }>('POST', '/share-classes', {
    name: 'Tokens',
    kind: 'common',
    votesPerShare: 1,
    authorized: 1_000_000,
  });
  const investor = await call<{ id: string }>('POST', '/customers', {
    name: 'Linus',
    email: `linus-${Date.now().toString(36)}@dashboard.test`,
    walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
    investorStatus: 'KYC Complete',
  });
  const now = Date.now();
  const round = await call<{ id: string }>('POST', '/funding-rounds', {
    name: 'Seed round',
    handle: 'seed',
    shareClassId: tokens.id,
    tokenPriceCents: 100,
    raiseAmountCents: 10_000_000,
    opensAt: new Date(now - 86_400_000).toISOString(),
    closesAt: new Date(now + 20 * 86_400_000).toISOString(),
  });
  await call('POST', `/funding-rounds/${round.id}/open`);
  await call('POST', '/token-orders', {
    roundId: round.id,
    customerId: investor.id,
    tokens: 30_000,
    payment: { method: 'terminal', terminalId },
  });
  await call('POST', `/terminals/${terminalId}/simulator/present-card`, {});
  await expect
    .poll(
      async () =>
        (await call<{ amountRaisedCents: number }>('GET', `/funding-rounds/${round.id}`))
          .amountRaisedCents,
      { timeout: 15_000, interval: 100 },
    )
    .toBe(3_000_000);
}

/** An amount or a count exactly as the UI writes it (admin-ui/src/layout/formatCad.ts), in the page's own Intl. */
const money = (page: Page, cents: number, locale: string) =>
  page.evaluate(
    ([amount, language]) => {
      const parts = new Intl.NumberFormat(language, {
        style: 'currency',
        currency: 'CAD',
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      }).formatToParts(amount / 100);
      return `${parts
        .map((part) => (part.type === 'currency' ? '$' : part.value))
        .join('')
        .trim()} CAD`;
    },
    [cents, locale] as const,
  );
const count = (page: Page, value: number, locale: string) =>
  page.evaluate(([n, language]) => n.toLocaleString(language), [value, locale] as const);

const compact = (page: Page, value: number, locale: string) =>
  page.evaluate(
    ([n, language]) =>
      n.toLocaleString(language, { notation: 'compact', maximumFractionDigits: 1 }),
    [value, locale] as const,
  );

const stat = (page: Page, id: string) => page.getByTestId(`stat-${id}-value`);

/**
 * Whether the text's first character is drawn left of its last, as "$2,115.94 CAD" must be even
 * in an Arabic page (unisolated, the right-to-left paragraph draws it "CAD $2,115.94").
 */
const drawnLeftToRight = (value: Locator) =>
  value.evaluate((element) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const text = walker.nextNode();
    const length = text?.textContent?.length ?? 0;
    if (!text || length < 2) return false;
    const characterLeft = (index: number) => {
      const range = document.createRange();
      range.setStart(text, index);
      range.setEnd(text, index + 1);
      return range.getBoundingClientRect().left;
    };
    return characterLeft(0) < characterLeft(length - 1);
  });

async function dashboardPage(
  portal: Portal,
  browser: Parameters<typeof freshPage>[0],
  company: Company,
  locale: string,
  viewport: typeof desktop,
) {
  const opened = await freshPage(browser, viewport);
  await seedStorage(opened.page, portal, { [tokenKey]: company.token, locale });
  await open(opened.page, portal, '/dashboard');
  return opened;
}

/** The dashboard of a company just registered and verified, with nothing in it yet. */
async function newCompanyDashboard(
  suite: { portal: Portal; browser: Parameters<typeof freshPage>[0] },
  locale: string,
  viewport: typeof desktop,
) {
  const company = await suite.portal.registerCompany();
  await suite.portal.verify(company);
  return dashboardPage(suite.portal, suite.browser, company, locale, viewport);
}

describeInBrowser('dashboard', (suite) => {
  it.each([
    ['English', 'en', desktop],
    ['Arabic', 'ar', phone],
  ] as const)(
    'shows the figures the API gives, in %s, without sideways scroll, and follows live changes',
    async (_language, locale, viewport) => {
      const { company, terminal } = await busyIssuer(suite.portal);
      const figures = await suite.portal.api<Dashboard>('GET', '/dashboard?top=5&activity=8', {
        token: company.token,
      });
      expect(figures.pendingPayments.count).toBe(1);
      expect(figures.capTable.holders).toBe(1);
      const { context, page } = await dashboardPage(
        suite.portal,
        suite.browser,
        company,
        locale,
        viewport,
      );
      const t = texts[locale];
      await visible(page.getByRole('heading', { name: t.title, level: 1 }));
      await expect
        .poll(() => stat(page, 'balance').textContent(), eventually)
        .toBe(await money(page, figures.balance.availableCents, locale));
      expect(figures.balance.availableCents).toBeGreaterThan(0);
      expect(await stat(page, 'pending').textContent()).toBe(
        await money(page, figures.pendingPayments.amountCents, locale),
      );
      expect(await stat(page, 'mrr').textContent()).toBe(
        await money(page, figures.monthlyRecurringRevenue.amountCents, locale),
      );
      expect(await stat(page, 'holders').textContent()).toBe(
        await count(page, figures.capTable.holders, locale),
      );
      for (const id of ['balance', 'pending', 'mrr'])
        expect(await drawnLeftToRight(stat(page, id)), id).toBe(true);
      // The doughnut and its legend: every status anyone is in, with its count.
      const investors = page.getByTestId('dashboard-investors');
      await visible(investors.locator('svg').first());
      const legend = await page.getByTestId('investor-statuses').locator('li').allInnerTexts();
      const present = figures.investorStatuses.filter((row) => row.count > 0);
      expect(legend).toHaveLength(present.length);
      for (const [index, row] of present.entries()) {
        expect(legend[index]).toContain(await count(page, row.count, locale));
      }
      if (t.kycComplete) expect(legend.join('\n')).toContain(t.kycComplete);
      // No funding round yet: the ranges and an honest empty state.
      const funding = page.getByTestId('dashboard-funding');
      for (const range of t.ranges) {
        await visible(funding.getByRole('button', { name: range, exact: true }));
      }
      await visible(funding.getByText(t.fundingEmpty));
      // Top holders and recent activity, with links to the records.
      await visible(page.getByTestId('dashboard-holders').getByRole('link', { name: 'Ada' }));
      const activity = page.getByTestId('dashboard-activity-list').locator('li');
      expect(await activity.count()).toBe(figures.recentActivity?.length);
      // Each entry names its event in the reader's language, not by its stored type.
      const lines = await activity.allTextContents();
      for (const { eventType } of figures.recentActivity ?? []) {
        expect(lines.join('\n')).not.toContain(eventType);
      }
      for (const line of lines) expect(line).toMatch(t.eventLine);
      // An entry that moved money says how much, as the figures above write amounts. Billing
      // may still add entries, so each line is compared with the API's answer of the moment.
      const amountsShown = async () => {
        const latest = await suite.portal.api<Dashboard>('GET', '/dashboard?top=5&activity=8', {
          token: company.token,
        });
        const shown = await activity.allTextContents();
        const expected = await Promise.all(
          (latest.recentActivity ?? []).map((entry) =>
            entry.amountCents === null ? null : money(page, entry.amountCents, locale),
          ),
        );
        return expected.every((text, index) => text === null || shown[index]?.includes(text));
      };
      await expect.poll(amountsShown, eventually).toBe(true);
      expect(figures.recentActivity?.some((entry) => entry.amountCents !== null)).toBe(true);
      expect(await sidewaysOverflow(page)).toEqual([]);
      expect(await page.evaluate(() => (document.body.textContent ?? '').includes('%{'))).toBe(
        false,
      );

      // Another payment taken at the terminal shows without a reload (live updates).
      await suite.portal.api('POST', '/payments', {
        token: company.token,
        body: { terminalId: terminal.id, amountCents: 800, currency: 'CAD' },
      });
      await expect
        .poll(() => stat(page, 'pending').textContent(), eventually)
        .toBe(await money(page, figures.pendingPayments.amountCents + 800, locale));
      await context.close();
    },
  );

  it.each([
    ['English at 1280 px', 'en', desktop],
    // Arabic's day labels ("27 نوفمبر") are twice as wide as English's: the last is not cut off.
    ['Arabic at 390 px', 'ar', phone],
  ] as const)('charts the money a round raised, in %s', async (_where, locale, viewport) => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    await suite.portal.makeIssuer(company);
    const terminal = await suite.portal.api<{ id: string }>('POST', '/terminals', {
      token: company.token,
      body: { name: 'Front desk', deviceId: `FR-${company.companySymbol}` },
    });
    await roundWithMoney(suite.portal, company, terminal.id);
    const figures = await suite.portal.api<Dashboard>('GET', '/dashboard', {
      token: company.token,
    });
    expect(figures.fundingProgress.available).toBe(true);
    expect(figures.fundingProgress.series.at(-1)?.raisedCents).toBe(3_000_000);
    const { context, page } = await dashboardPage(
      suite.portal,
      suite.browser,
      company,
      locale,
      viewport,
    );
    const chart = page.getByTestId('funding-chart');
    await visible(chart.locator('svg path').first());
    // The series is drawn as a line (and its area), and the y axis steps by 20,000 CAD.
    expect(await chart.locator('.MuiLineChart-line, .MuiLineElement-root').count()).toBeGreaterThan(
      0,
    );
    // One short label a day, none cut off.
    const labels = await chart.locator('svg text').allTextContents();
    expect(labels.filter((label) => label.includes('…'))).toEqual([]);
    // The ticks short ("20K", "20 ألف"), so six figures fit the axis too.
    for (const tick of [20_000, 40_000])
      await visible(chart.getByText(await compact(page, tick, locale), { exact: true }));
    expect(
      await page.getByTestId('dashboard-funding').getByText(texts[locale].fundingEmpty).count(),
    ).toBe(0);
    await page
      .getByTestId('dashboard-funding')
      .getByRole('button', { name: texts[locale].ranges[2], exact: true })
      .click();
    await visible(chart.locator('svg path').first());
    expect(await sidewaysOverflow(page)).toEqual([]);
    await context.close();
  });

  it.each([
    ['English', 'en', phone],
    ['Arabic', 'ar', desktop],
  ] as const)(
    'shows a new company its empty states, in %s, without sideways scroll',
    async (_language, locale, viewport) => {
      const { context, page } = await newCompanyDashboard(suite, locale, viewport);
      const t = texts[locale];
      await expect
        .poll(() => stat(page, 'balance').textContent(), eventually)
        .toBe(await money(page, 0, locale));
      expect(await stat(page, 'pending').textContent()).toBe(await money(page, 0, locale));
      expect(await stat(page, 'mrr').textContent()).toBe(await money(page, 0, locale));
      expect(await stat(page, 'holders').textContent()).toBe(await count(page, 0, locale));
      await visible(page.getByText(t.investorsEmpty));
      await visible(page.getByText(t.fundingEmpty));
      await visible(page.getByText(t.holdersEmpty));
      expect(await sidewaysOverflow(page)).toEqual([]);
      await context.close();
    },
  );

  it.each([
    ['English', 'en'],
    ['Turkish', 'tr'],
    ['Arabic', 'ar'],
  ] as const)(
    'names the funding chart’s periods in words on a 390 px phone, in %s, with their full wording on hover',
    async (_language, locale) => {
      const { context, page } = await newCompanyDashboard(suite, locale, phone);
      const funding = page.getByTestId('dashboard-funding');
      const buttons = funding.getByRole('button');
      await visible(buttons.first());
      // In order, each shows its short label and is named by its full wording.
      expect(await buttons.allInnerTexts()).toEqual(periods[locale].map(([label]) => label));
      const names = await buttons.evaluateAll((all) =>
        all.map((b) => b.getAttribute('aria-label')),
      );
      expect(names).toEqual(periods[locale].map(([, name]) => name));
      // One line each, side by side, inside the phone's width.
      const boxes = await buttons.evaluateAll((all) =>
        all.map((b) => {
          const box = b.getBoundingClientRect();
          return { top: box.top, height: box.height, left: box.left, right: box.right };
        }),
      );
      const width = await page.evaluate(() => document.documentElement.clientWidth);
      for (const box of boxes) {
        expect(box.top).toBe(boxes[0]?.top);
        expect(box.height).toBeLessThan(40);
        expect(box.left).toBeGreaterThanOrEqual(0);
        expect(box.right).toBeLessThanOrEqual(width);
      }
      expect(await sidewaysOverflow(page)).toEqual([]);
      // Hovering one shows its full wording.
      const [label, name] = periods[locale][2];
      await funding.getByRole('button', { name: label }).hover();
      await expect.poll(() => page.getByRole('tooltip').textContent(), eventually).toBe(name);
      await context.close();
    },
  );
});
