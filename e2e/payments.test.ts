import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Company, Portal } from './support/portal';
import {
  dateField,
  freshPage,
  open,
  pickOption,
  readingDirection,
  seedStorage,
  sidewaysOverflow,
  tokenKey,
  typeDate,
  visible,
  waitForPath,
} from './support/screens';
import { describeInBrowser } from './support/suite';

/** What a user reads and clicks, in each language the tests walk through. */
const languages = {
  English: {
    locale: 'en',
    take: 'Take a payment',
    amount: 'Amount (CAD)',
    customer: 'Customer',
    description: 'Description',
    terminal: 'Terminal',
    charge: /^Charge /,
    waiting: (terminal: string) => `Waiting for card on ${terminal}`,
    simulate: 'Simulate card',
    approveCard: /^Approved \(Visa/,
    declineCard: /^Declined \(/,
    approved: 'Payment approved',
    declined: 'Payment declined: Card declined',
    close: 'Close',
    cancel: 'Cancel',
    refund: 'Refund',
    refundAmount: 'Refund amount (CAD)',
    reason: 'Reason',
    totals: (count: number, net: string) => `Transactions: ${count} · Net: ${net}`,
    exportCsv: 'Export CSV',
    transactions: 'Transactions',
    noTransactions: 'No transactions yet',
    noPending: 'No payments are waiting for a card',
  },
  Turkish: {
    locale: 'tr',
    take: 'Ödeme al',
    amount: 'Tutar (CAD)',
    customer: 'Müşteri',
    description: 'Açıklama',
    terminal: 'Terminal cihazı',
    charge: / tahsil et$/,
    waiting: (terminal: string) => `${terminal} üzerinde kart bekleniyor`,
    simulate: 'Kart simüle et',
    approveCard: /^Onaylandı \(Visa/,
    declineCard: /^Reddedildi \(/,
    approved: 'Ödeme onaylandı',
    declined: 'Ödeme reddedildi: Kart reddedildi',
    close: 'Kapat',
    cancel: 'Vazgeç',
    refund: 'İade et',
    refundAmount: 'İade tutarı (CAD)',
    reason: 'Neden',
    totals: (count: number, net: string) => `İşlem: ${count} · Net tutar: ${net}`,
    exportCsv: 'CSV dışa aktar',
    transactions: 'İşlemler',
    noTransactions: 'Henüz işlem yok',
    noPending: 'Kart bekleyen ödeme yok',
  },
  Arabic: {
    locale: 'ar',
    take: 'تحصيل دفعة',
    amount: 'المبلغ (CAD)',
    customer: 'العميل',
    description: 'الوصف',
    terminal: 'الجهاز',
    charge: /^تحصيل /,
    waiting: (terminal: string) => `بانتظار البطاقة على ${terminal}`,
    simulate: 'محاكاة بطاقة',
    approveCard: /^مقبولة \(Visa/,
    declineCard: /^مرفوضة \(/,
    approved: 'قُبلت الدفعة',
    declined: 'رُفضت الدفعة: رُفضت البطاقة',
    close: 'إغلاق',
    cancel: 'إلغاء',
    refund: 'استرداد',
    refundAmount: 'مبلغ الاسترداد (CAD)',
    reason: 'السبب',
    totals: (count: number, net: string) => `المعاملات: ${count} · الصافي: ${net}`,
    exportCsv: 'تصدير CSV',
    transactions: 'المعاملات',
    noTransactions: 'لا توجد معاملات بعد',
    noPending: 'لا توجد مدفوعات بانتظار بطاقة',
  },
} as const;

type Texts = (typeof languages)[keyof typeof languages];

const desktop = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };

/** Polls as long as a step may take: the card's outcome comes back by webhook, then a read model. */
const eventually = { timeout: 20_000 };

/** PAYMENTS_SHOTS=/some/dir keeps a picture of each screen the tests pass through. */
const shotsDir = process.env.PAYMENTS_SHOTS;
async function shoot(page: Page, name: string) {
  if (!shotsDir) return;
  await mkdir(shotsDir, { recursive: true });
  // Dialogs and drawers slide in for 225 ms: the picture is of where they settle.
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(shotsDir, `${name}.png`) });
}

interface Terminal {
  id: string;
  name: string;
  deviceId: string;
}

async function companyWithTerminals(portal: Portal) {
  const company = await portal.registerCompany();
  await portal.verify(company);
  const terminal = (name: string, deviceId: string) =>
    portal.api<Terminal>('POST', '/terminals', {
      token: company.token,
      body: { name, deviceId },
    });
  const frontDesk = await terminal('Front desk', `FD-${company.companySymbol}`);
  const backOffice = await terminal('Back office', `BO-${company.companySymbol}`);
  return { company, frontDesk, backOffice };
}

/** The app in `texts`' language at `viewport`, signed in as `company`, with `active` as the sidebar's terminal. */
async function paymentsPage(
  browser: Parameters<typeof freshPage>[0],
  portal: Portal,
  company: Company,
  texts: Texts,
  { active, viewport, path }: { active: Terminal; viewport: typeof desktop; path: string },
) {
  const opened = await freshPage(browser, viewport);
  await seedStorage(opened.page, portal, {
    [tokenKey]: company.token,
    locale: texts.locale,
    activeTerminalId: active.deviceId,
  });
  await open(opened.page, portal, path);
  await waitForPath(opened.page, path);
  return opened;
}

/** An amount exactly as the UI writes it (admin-ui/src/layout/formatCad.ts), in the page's own Intl. */
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

/** A message shown with its placeholder unfilled would show `%{name}`. */
const showsRawPlaceholder = (page: Page) =>
  page.evaluate(() => (document.body.textContent ?? '').includes('%{'));

async function checkScreen(page: Page) {
  expect(await sidewaysOverflow(page)).toEqual([]);
  expect(await showsRawPlaceholder(page)).toBe(false);
}

const takePaymentDialog = (page: Page, texts: Texts) =>
  page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: texts.take }) });

/** Fills Take a payment and charges; answers the dialog, now waiting for the card. */
async function charge(
  page: Page,
  texts: Texts,
  { amount, description, customer }: { amount: string; description: string; customer?: string },
): Promise<Locator> {
  const dialog = takePaymentDialog(page, texts);
  await visible(dialog.getByLabel(texts.amount));
  await dialog.getByLabel(texts.amount).fill(amount);
  if (customer) {
    const combobox = dialog.getByRole('combobox', { name: texts.customer });
    await pickOption(page, combobox, customer.split(' ')[0] ?? '', customer);
  }
  await dialog.getByLabel(texts.description).fill(description);
  await dialog.getByRole('button', { name: texts.charge }).click();
  return dialog;
}

async function simulate(page: Page, scope: Locator, texts: Texts, card: RegExp) {
  await scope.getByRole('button', { name: texts.simulate }).first().click();
  await page.getByRole('menuitem', { name: card }).click();
}

const balanceText = (page: Page) => page.getByTestId('balance').first().textContent();

describeInBrowser('payments', (suite) => {
  it('takes a payment on the active terminal, sees the transaction and the balance, refunds part of it (English, 1280 px)', async () => {
    const texts = languages.English;
    const { company, backOffice } = await companyWithTerminals(suite.portal);
    const grace = await suite.portal.api<{ id: string; email: string }>('POST', '/customers', {
      token: company.token,
      body: {
        email: `grace-${Date.now().toString(36)}@investors.test`,
        name: 'Grace',
        lastName: 'Hopper',
      },
    });
    const { context, page } = await paymentsPage(suite.browser, suite.portal, company, texts, {
      active: backOffice,
      viewport: desktop,
      path: '/pendingpayments/all',
    });
    await visible(page.getByText(texts.noPending));
    await checkScreen(page);

    // The sidebar's button, on the sidebar's active terminal (the second one).
    await page.getByTestId('sidebar').getByRole('button', { name: texts.take }).click();
    const dialog = takePaymentDialog(page, texts);
    await expect
      .poll(() => dialog.getByRole('combobox', { name: texts.terminal }).textContent(), eventually)
      .toContain('Back office');
    await charge(page, texts, {
      amount: '12.34',
      description: 'Espresso machine',
      customer: 'Grace Hopper',
    });
    await visible(dialog.getByText(texts.waiting('Back office')));
    await shoot(page, 'en-desktop-waiting');
    await checkScreen(page);
    await simulate(page, dialog, texts, texts.approveCard);
    await visible(dialog.getByText(texts.approved));
    const paid = await money(page, 1234, texts.locale);
    await expect.poll(() => balanceText(page), eventually).toContain(paid);
    await shoot(page, 'en-desktop-approved');
    await dialog.getByRole('button', { name: texts.close }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page
      .getByRole('navigation')
      .getByRole('link', { name: texts.transactions, exact: true })
      .click();
    await waitForPath(page, '/transactions/all');
    const paymentRow = page.getByRole('row').filter({ hasText: 'Espresso machine' });
    await visible(paymentRow);
    await visible(paymentRow.getByText('Grace Hopper'));
    await visible(paymentRow.getByText('•••• 4242', { exact: true }));
    await visible(paymentRow.getByText('Visa', { exact: true }));
    await visible(page.getByText(texts.totals(1, paid)));
    await checkScreen(page);

    // The export is every matching row, from the server.
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      page.getByRole('button', { name: texts.exportCsv }).click(),
    ]);
    expect(await readFile(await download.path(), 'utf8')).toContain('Espresso machine');

    await paymentRow.click();
    const drawer = page.getByTestId('transaction-drawer');
    await drawer.getByRole('button', { name: texts.refund }).click();
    const refundDialog = page
      .getByRole('dialog')
      .filter({ has: page.getByLabel(texts.refundAmount) });
    // The whole remaining amount is offered; a partial refund types less.
    expect(await refundDialog.getByLabel(texts.refundAmount).inputValue()).toBe('12.34');
    await refundDialog.getByLabel(texts.refundAmount).fill('99');
    await refundDialog.getByLabel(texts.reason).fill('Damaged box');
    await refundDialog.getByRole('button', { name: texts.refund }).click();
    await visible(refundDialog.getByText(/At most/));
    await refundDialog.getByLabel(texts.refundAmount).fill('5');
    await refundDialog.getByRole('button', { name: texts.refund }).click();
    await refundDialog.waitFor({ state: 'hidden' });
    const left = await money(page, 734, texts.locale);
    await expect.poll(() => drawer.getByTestId('refundable').textContent(), eventually).toBe(left);
    await visible(drawer.getByText('Damaged box'));
    await expect.poll(() => balanceText(page), eventually).toContain(left);
    await shoot(page, 'en-desktop-refunded');

    // Someone refunds part of the rest meanwhile: the dialog refuses its amount and says why, from
    // the live update when it came first, or else from the API's refusal.
    await drawer.getByRole('button', { name: texts.refund }).click();
    expect(await refundDialog.getByLabel(texts.refundAmount).inputValue()).toBe('7.34');
    // The title names the payment, not what a refund would return: that is the field's, 7.34.
    const title = await refundDialog.getByRole('heading').textContent();
    expect(title?.replace(/[\u2066-\u2069]/g, '')).toBe(`Refund a payment of ${paid}`);
    const [payment] = await suite.portal.api<{ id: string }[]>('GET', '/payments', {
      token: company.token,
    });
    await suite.portal.api('POST', `/payments/${payment?.id}/refunds`, {
      token: company.token,
      body: { amountCents: 200, reason: 'Refunded at the counter' },
    });
    await refundDialog.getByLabel(texts.reason).fill('The rest');
    await refundDialog.getByRole('button', { name: texts.refund }).click();
    await visible(refundDialog.getByText(/exceeds what remains|At most/));
    await refundDialog.getByRole('button', { name: texts.cancel }).click();
    await refundDialog.waitFor({ state: 'hidden' });
    const net = await money(page, 534, texts.locale);
    await expect.poll(() => drawer.getByTestId('refundable').textContent(), eventually).toBe(net);
    await page.keyboard.press('Escape');
    await visible(page.getByRole('row').filter({ hasText: await money(page, -500, texts.locale) }));
    await visible(page.getByText(texts.totals(3, net)));
    await expect.poll(() => balanceText(page), eventually).toContain(net);

    // The customer's Transactions dialog shows the same three movements.
    await open(page, suite.portal, '/customers/all');
    await page.getByRole('button', { name: `Transactions ${grace.email}` }).click();
    const customerDialog = page.getByRole('dialog');
    await visible(customerDialog.getByText(texts.totals(3, net)));
    await shoot(page, 'en-desktop-customer-transactions');
    await context.close();
  });

  it('shows a refund the card processor refused as failed, with its reason, and keeps the balance (English, 1280 px)', async () => {
    const texts = languages.English;
    const { company, frontDesk } = await companyWithTerminals(suite.portal);
    const payment = await suite.portal.api<{ id: string }>('POST', '/payments', {
      token: company.token,
      body: { terminalId: frontDesk.id, amountCents: 4200, currency: 'CAD', description: 'Kettle' },
    });
    // Stripe's test card whose charge succeeds and whose refunds fail.
    await suite.portal.api('POST', `/terminals/${frontDesk.id}/simulator/present-card`, {
      token: company.token,
      body: { card: '4000000000005126' },
    });
    await expect
      .poll(
        async () =>
          (
            await suite.portal.api<{ status: string }>('GET', `/payments/${payment.id}`, {
              token: company.token,
            })
          ).status,
        eventually,
      )
      .toBe('captured');
    const { context, page } = await paymentsPage(suite.browser, suite.portal, company, texts, {
      active: frontDesk,
      viewport: desktop,
      path: '/transactions/all',
    });
    const paid = await money(page, 4200, texts.locale);
    await expect.poll(() => balanceText(page), eventually).toContain(paid);
    await page.getByRole('row').filter({ hasText: 'Kettle' }).click();
    const drawer = page.getByTestId('transaction-drawer');
    await drawer.getByRole('button', { name: texts.refund }).click();
    const refundDialog = page
      .getByRole('dialog')
      .filter({ has: page.getByLabel(texts.refundAmount) });
    await refundDialog.getByLabel(texts.reason).fill('Wrong colour');
    await refundDialog.getByRole('button', { name: texts.refund }).click();
    await visible(
      refundDialog.getByText('The card processor refused the refund: expired_or_canceled_card'),
    );
    await refundDialog.getByRole('button', { name: texts.cancel }).click();
    await refundDialog.waitFor({ state: 'hidden' });

    await visible(drawer.getByTestId('refund-failed'));
    expect(await drawer.getByTestId('refund-failed').textContent()).toBe('Failed');
    await visible(drawer.getByText('The card processor refused it: expired or cancelled card'));
    await visible(drawer.getByText(/Wrong colour/));
    expect(await drawer.getByTestId('refundable').textContent()).toBe(paid);
    await shoot(page, 'en-desktop-refund-failed');
    await checkScreen(page);
    await page.keyboard.press('Escape');
    // The refund's row says Failed and no longer counts: the net and the balance stay whole.
    const failedRow = page.getByRole('row').filter({ hasText: 'Wrong colour' });
    await visible(failedRow.getByText('Failed'));
    await visible(failedRow.getByText(await money(page, -4200, texts.locale)));
    await visible(page.getByText(texts.totals(2, paid)));
    expect(await balanceText(page)).toContain(paid);
    await context.close();
  });

  it('takes, declines from the pending list and refunds on a phone (Arabic, 390 px)', async () => {
    const texts = languages.Arabic;
    const { company, frontDesk } = await companyWithTerminals(suite.portal);
    const { context, page } = await paymentsPage(suite.browser, suite.portal, company, texts, {
      active: frontDesk,
      viewport: phone,
      path: '/pendingpayments/all',
    });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dir), eventually)
      .toBe('rtl');
    await visible(page.getByText(texts.noPending));
    await checkScreen(page);

    // A payment left waiting shows in Pending Payments; a declined card takes it out.
    await page.getByRole('main').getByRole('button', { name: texts.take }).click();
    const dialog = await charge(page, texts, { amount: '8', description: 'Mug' });
    await visible(dialog.getByText(texts.waiting('Front desk')));
    await shoot(page, 'ar-phone-waiting');
    await checkScreen(page);
    await dialog.getByRole('button', { name: texts.close }).click();
    await dialog.waitFor({ state: 'hidden' });
    const pending = page.getByRole('main').getByRole('listitem').filter({ hasText: 'Mug' });
    await visible(pending);
    await shoot(page, 'ar-phone-pending');
    await checkScreen(page);
    await simulate(page, pending, texts, texts.declineCard);
    await visible(page.getByText(texts.noPending));

    await page.getByRole('main').getByRole('button', { name: texts.take }).click();
    await charge(page, texts, { amount: '20.00', description: 'Teapot' });
    await simulate(page, dialog, texts, texts.approveCard);
    await visible(dialog.getByText(texts.approved));
    await shoot(page, 'ar-phone-approved');
    await checkScreen(page);
    await dialog.getByRole('button', { name: texts.close }).click();
    await dialog.waitFor({ state: 'hidden' });

    await open(page, suite.portal, '/transactions/all');
    const paid = await money(page, 2000, texts.locale);
    await visible(page.getByText(texts.totals(1, paid)));
    await shoot(page, 'ar-phone-transactions');
    await checkScreen(page);
    await page.getByRole('main').getByText('Teapot').click();
    const drawer = page.getByTestId('transaction-drawer');
    // The card as the simulator and saved cards write it, left to right in an Arabic screen.
    const card = drawer.getByText('Visa •••• 4242', { exact: true });
    await visible(card);
    expect(await readingDirection(card)).toBe('ltr');
    await drawer.getByRole('button', { name: texts.refund }).click();
    const refundDialog = page
      .getByRole('dialog')
      .filter({ has: page.getByLabel(texts.refundAmount) });
    await refundDialog.getByLabel(texts.refundAmount).fill('7.5');
    await refundDialog.getByLabel(texts.reason).fill('Chipped lid');
    await shoot(page, 'ar-phone-refund');
    await refundDialog.getByRole('button', { name: texts.refund }).click();
    await refundDialog.waitFor({ state: 'hidden' });
    const left = await money(page, 1250, texts.locale);
    await expect.poll(() => drawer.getByTestId('refundable').textContent(), eventually).toBe(left);
    await shoot(page, 'ar-phone-drawer');
    await checkScreen(page);
    await page.keyboard.press('Escape');
    await visible(page.getByText(texts.totals(2, left)));

    // The sidebar (a drawer on a phone) shows the new balance.
    await page.locator('header button').first().click();
    await expect.poll(() => balanceText(page), eventually).toContain(left);
    await shoot(page, 'ar-phone-sidebar');
    await context.close();
  });

  it('writes the card’s digits on one line, its brand above them, in an Arabic table beside long names, and the terminal picker cuts a long English name at its end (1280 px)', async () => {
    const { company } = await companyWithTerminals(suite.portal);
    const call = <T>(path: string, body?: unknown) =>
      suite.portal.api<T>('POST', path, { token: company.token, body });
    const till = await call<Terminal>('/terminals', {
      name: 'Front desk terminal by the main entrance',
      deviceId: `LONG-${company.companySymbol}`,
    });
    const customer = await call<{ id: string }>('/customers', {
      name: 'Maximiliana',
      lastName: 'Konstantinopoulou-Westerberg',
      email: `maximiliana-${company.companySymbol.toLowerCase()}@northern-lights-investments.example`,
    });
    await call('/payments', {
      terminalId: till.id,
      amountCents: 123_456,
      currency: 'CAD',
      description: 'Annual maintenance contract for the robotic arm assembly line',
      customerId: customer.id,
    });
    await call(`/terminals/${till.id}/simulator/present-card`);
    const { context, page } = await paymentsPage(
      suite.browser,
      suite.portal,
      company,
      languages.Arabic,
      { active: till, viewport: desktop, path: '/transactions/all' },
    );
    const card = page.getByRole('main').getByText('•••• 4242', { exact: true });
    await visible(card);
    expect(await card.evaluate((element) => element.getClientRects().length)).toBe(1);
    // The brand stands above the digits in the same cell, never splitting them.
    expect(await card.evaluate((element) => element.parentElement?.textContent)).toBe(
      'Visa•••• 4242',
    );
    const picker = page.getByTestId('sidebar').getByRole('combobox');
    await expect.poll(() => picker.textContent()).toBe('Front desk terminal by the main entrance');
    expect(await readingDirection(picker)).toBe('ltr');
    await context.close();
  });

  it('without a terminal, says where to register one and opens the company profile there (Turkish, 390 px)', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    const { context, page } = await freshPage(suite.browser, phone);
    await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale: 'tr' });
    await open(page, suite.portal, '/pendingpayments/all');
    await waitForPath(page, '/pendingpayments/all');

    await page.getByRole('button', { name: languages.Turkish.take }).first().click();
    const dialog = takePaymentDialog(page, languages.Turkish);
    await visible(
      dialog.getByText('Ödeme almadan önce şirket profilinde bir ödeme terminali kaydedin.'),
    );
    await checkScreen(page);
    await dialog.getByRole('link', { name: 'Şirket profilini aç' }).click();

    await waitForPath(page, '/profile');
    await dialog.waitFor({ state: 'hidden' });
    await visible(page.getByRole('button', { name: 'Terminal kaydet' }));
    await visible(page.getByText('Henüz ödeme terminali yok').first());
    await checkScreen(page);
    await context.close();
  });

  it('shows a declined card with its reason and no transaction (Turkish, 1280 px)', async () => {
    const texts = languages.Turkish;
    const { company, frontDesk } = await companyWithTerminals(suite.portal);
    const { context, page } = await paymentsPage(suite.browser, suite.portal, company, texts, {
      active: frontDesk,
      viewport: desktop,
      path: '/transactions/all',
    });
    await visible(page.getByText(texts.noTransactions));
    await checkScreen(page);
    await page.getByRole('main').getByRole('button', { name: texts.take }).click();
    const dialog = await charge(page, texts, { amount: '1.234,50', description: 'Lamp' });
    await visible(dialog.getByText(texts.waiting('Front desk')));
    await simulate(page, dialog, texts, texts.declineCard);
    await visible(dialog.getByText(texts.declined));
    await checkScreen(page);
    await dialog.getByRole('button', { name: texts.close }).click();
    await dialog.waitFor({ state: 'hidden' });
    await visible(page.getByText(texts.noTransactions));
    const payments = await suite.portal.api<{ amountCents: number; status: string }[]>(
      'GET',
      '/payments',
      { token: company.token },
    );
    expect(payments.map(({ amountCents, status }) => ({ amountCents, status }))).toEqual([
      { amountCents: 123_450, status: 'declined' },
    ]);
    await context.close();
  });
});

describeInBrowser('transactions date filter', (suite) => {
  it('takes the days typed in Turkish order and asks from the first day’s start to the last day’s end (Turkish, 1280 px)', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    const { context, page } = await freshPage(suite.browser, desktop);
    await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale: 'tr' });
    await open(page, suite.portal, '/transactions');
    const addFilter = async (name: string) => {
      await page.getByRole('button', { name: 'Filtre ekle' }).click();
      await page.getByRole('menuitemcheckbox', { name }).click();
    };
    // The browser's own midnights: the 15th's start, and the 21st's start for "to the 20th, inclusive".
    const [from, to] = await page.evaluate(() => [
      new Date(2026, 0, 15).toISOString(),
      new Date(2026, 0, 21).toISOString(),
    ]);
    const filter = () => JSON.parse(new URL(page.url()).searchParams.get('filter') ?? '{}');
    await addFilter('Başlangıç');
    await typeDate(dateField(page, 'Başlangıç'), '2026-01-15');
    await expect.poll(filter).toMatchObject({ createdFrom: from });
    await addFilter('Bitiş (dahil)');
    await typeDate(dateField(page, 'Bitiş (dahil)'), '2026-01-20');
    await expect.poll(filter).toMatchObject({ createdFrom: from, createdTo: to });
    const shown = (label: string) =>
      dateField(page, label)
        .locator('.MuiPickersSectionList-root')
        .evaluate((sections) => sections.textContent);
    expect(await shown('Başlangıç')).toBe('15.01.2026');
    expect(await shown('Bitiş (dahil)')).toBe('20.01.2026');
    expect(await sidewaysOverflow(page)).toEqual([]);
    // Every filter of the menu is named in Turkish (the customer's read "Customer").
    await page.getByRole('button', { name: 'Filtre ekle' }).click();
    await visible(page.getByRole('menuitemcheckbox', { name: 'Müşteri' }));
    await context.close();
  });
});
