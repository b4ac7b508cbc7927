import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Company, Portal } from './support/portal';
import {
  dialogTitled,
  freshPage,
  open,
  openDialog,
  pickOption,
  seedStorage,
  sidewaysOverflow,
  tokenKey,
  visible,
  waitForPath,
} from './support/screens';
import { describeInBrowser } from './support/suite';

/** What a user reads and clicks, in each language the tests walk through. */
const languages = {
  English: {
    locale: 'en',
    empty: 'No subscriptions yet',
    plans: 'Plans',
    newPlan: 'New plan',
    name: 'Name',
    amount: 'Amount (CAD)',
    save: 'Save',
    subscribe: 'Subscribe a customer',
    subscribeSubmit: 'Subscribe',
    customer: 'Customer',
    plan: 'Plan',
    active: 'Active',
    open: 'Open',
    paid: 'Paid',
    deposited: 'Deposited',
    simulateDeposit: 'Simulate deposit',
    totals: (count: number) => `Subscriptions: ${count}`,
    customerSection: 'Subscriptions',
    cancel: 'Cancel subscription',
    cancelNow: 'Cancel now',
    cancelled: 'Cancelled',
    close: 'Close',
    edit: 'Edit',
    archive: 'Archive',
    archived: 'Archived',
  },
  Arabic: {
    locale: 'ar',
    empty: 'لا توجد اشتراكات بعد',
    plans: 'الخطط',
    newPlan: 'خطة جديدة',
    name: 'الاسم',
    amount: 'المبلغ (CAD)',
    save: 'حفظ',
    subscribe: 'اشتراك عميل',
    subscribeSubmit: 'اشتراك',
    customer: 'العميل',
    plan: 'الخطة',
    active: 'نشط',
    open: 'مفتوحة',
    paid: 'مدفوعة',
    deposited: 'مودَع',
    simulateDeposit: 'محاكاة إيداع',
    totals: (count: number) => `الاشتراكات: ${count}`,
    customerSection: 'الاشتراكات',
    cancel: 'إلغاء الاشتراك',
    cancelNow: 'الإلغاء الآن',
    cancelled: 'ملغى',
    close: 'إغلاق',
    edit: 'تعديل',
    archive: 'أرشفة',
    archived: 'مؤرشفة',
  },
} as const;

type Texts = (typeof languages)[keyof typeof languages];

const desktop = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };

/** Polls as long as a step may take: the scheduler runs every second, then a read model. */
const eventually = { timeout: 30_000 };

interface Customer {
  id: string;
  email: string;
}

async function companyWithCustomer(portal: Portal) {
  const company = await portal.registerCompany();
  await portal.verify(company);
  const customer = await portal.api<Customer>('POST', '/customers', {
    token: company.token,
    body: {
      email: `ada-${Date.now().toString(36)}@investors.test`,
      name: 'Ada',
      lastName: 'Lovelace',
    },
  });
  return { company, customer };
}

async function signedIn(
  browser: Parameters<typeof freshPage>[0],
  portal: Portal,
  company: Company,
  texts: Texts,
  viewport: typeof desktop,
  path: string,
) {
  const opened = await freshPage(browser, viewport);
  await seedStorage(opened.page, portal, { [tokenKey]: company.token, locale: texts.locale });
  await open(opened.page, portal, path);
  return opened;
}

/** An amount exactly as the UI writes it, in the page's own Intl. */
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

async function checkScreen(page: Page) {
  expect(await sidewaysOverflow(page)).toEqual([]);
  expect(await page.evaluate(() => (document.body.textContent ?? '').includes('%{'))).toBe(false);
}

const balanceText = (page: Page) => page.getByTestId('balance').first().textContent();

async function pick(page: Page, dialog: Locator, label: string, typed: string, option: string) {
  await pickOption(page, dialog.getByRole('combobox', { name: label }), typed, option);
}

const invoiceStatus = (drawer: Locator) =>
  drawer.getByTestId('invoice').first().getByTestId('invoice-status').textContent();

describeInBrowser('subscriptions', (suite) => {
  it('creates a plan, subscribes a customer, the first invoice is issued and paid through the e-transfer simulator, and the balance grows (English, 1280 px)', async () => {
    const texts = languages.English;
    const { company, customer } = await companyWithCustomer(suite.portal);
    const { context, page } = await signedIn(
      suite.browser,
      suite.portal,
      company,
      texts,
      desktop,
      '/subscriptions',
    );
    await waitForPath(page, '/subscriptions/all');
    await visible(page.getByText(texts.empty));
    await checkScreen(page);

    // A monthly plan of $12.50 CAD, no trial.
    const plans = await openDialog(
      page,
      page.getByRole('main').getByRole('button', { name: texts.plans }),
      texts.plans,
    );
    await plans.getByRole('button', { name: texts.newPlan }).click();
    const form = dialogTitled(page, texts.newPlan);
    await form.getByLabel(texts.name).fill('Gold');
    await form.getByLabel(texts.amount).fill('12.50');
    await checkScreen(page);
    await form.getByRole('button', { name: texts.save }).click();
    await form.waitFor({ state: 'hidden' });
    await visible(plans.getByTestId('plan').filter({ hasText: 'Gold' }));
    await page.keyboard.press('Escape');
    await plans.waitFor({ state: 'hidden' });

    // Subscribe Ada from now: period 0 is invoiced at once by the billing scheduler.
    const subscribe = await openDialog(
      page,
      page.getByRole('main').getByRole('button', { name: texts.subscribe }),
      texts.subscribe,
    );
    await pick(page, subscribe, texts.customer, 'Ada', 'Ada Lovelace');
    await pick(page, subscribe, texts.plan, 'Gold', 'Gold');
    await checkScreen(page);
    await subscribe.getByRole('button', { name: texts.subscribeSubmit, exact: true }).click();
    await subscribe.waitFor({ state: 'hidden' });
    const row = page.getByRole('row').filter({ hasText: 'Ada Lovelace' });
    await visible(row.getByText('Gold'));
    await visible(page.getByText(texts.totals(1)));

    await row.click();
    const drawer = page.getByTestId('subscription-drawer');
    await expect.poll(() => invoiceStatus(drawer), eventually).toBe(texts.open);
    await checkScreen(page);
    await page.keyboard.press('Escape');

    // The invoice is collected with an e-transfer request: the sandbox's customer pays it.
    await open(page, suite.portal, '/etransfers/all');
    const request = page.getByRole('row').filter({ hasText: 'Ada Lovelace' });
    await request.click();
    const etransfer = page.getByTestId('etransfer-drawer');
    await etransfer.getByRole('button', { name: texts.simulateDeposit }).click();
    await expect
      .poll(() => etransfer.getByTestId('etransfer-status').textContent(), eventually)
      .toBe(texts.deposited);
    const paid = await money(page, 1250, texts.locale);
    await expect.poll(() => balanceText(page), eventually).toContain(paid);

    // The invoice reads paid, on the subscription and on the customer's page.
    await open(page, suite.portal, '/subscriptions/active');
    await page.getByRole('row').filter({ hasText: 'Ada Lovelace' }).click();
    await expect.poll(() => invoiceStatus(drawer), eventually).toBe(texts.paid);
    await visible(drawer.getByText(texts.active));
    await page.keyboard.press('Escape');
    await open(page, suite.portal, `/customers/all/${customer.id}`);
    await page.getByRole('button', { name: texts.customerSection, exact: true }).click();
    const section = dialogTitled(page, `${texts.customerSection} · Ada Lovelace`);
    await visible(section.getByText(texts.totals(1)));
    await visible(section.getByTestId('invoice').getByText(texts.paid));
    await checkScreen(page);
    await context.close();
  }, 150_000);

  it('takes a payment with "save the card", subscribes by card on file, and the invoice is paid from the saved card: the balance grows by both (English, 1280 px)', async () => {
    const texts = languages.English;
    const { company, customer } = await companyWithCustomer(suite.portal);
    const till = await suite.portal.api<{ id: string; deviceId: string }>('POST', '/terminals', {
      token: company.token,
      body: { name: 'Till', deviceId: `TILL-${company.companySymbol}` },
    });
    await suite.portal.api('POST', '/plans', {
      token: company.token,
      body: { name: 'Gold', amountCents: 1250, interval: 'month' },
    });
    const opened = await freshPage(suite.browser, desktop);
    const { context, page } = opened;
    await seedStorage(page, suite.portal, {
      [tokenKey]: company.token,
      locale: texts.locale,
      activeTerminalId: till.deviceId,
    });
    await open(page, suite.portal, '/subscriptions/all');
    await waitForPath(page, '/subscriptions/all');

    // A $5.00 payment of Ada's, the card saved with her agreement.
    await page.getByTestId('sidebar').getByRole('button', { name: 'Take a payment' }).click();
    const take = dialogTitled(page, 'Take a payment');
    await take.getByLabel('Amount (CAD)').fill('5.00');
    const saveCard = take.getByLabel('Save the card for future charges (the customer agreed)');
    expect(await saveCard.count()).toBe(0); // offered only once a customer is chosen
    await pick(page, take, texts.customer, 'Ada', 'Ada Lovelace');
    await saveCard.check();
    await checkScreen(page);
    await take.getByRole('button', { name: /^Charge / }).click();
    await take.getByRole('button', { name: 'Simulate card' }).first().click();
    await page.getByRole('menuitem', { name: /^Approved \(Visa/ }).click();
    await visible(take.getByText('Payment approved'));
    await take.getByRole('button', { name: texts.close }).click();
    await take.waitFor({ state: 'hidden' });

    // Subscribed by the card on file: the first invoice is charged to it at once.
    const subscribe = await openDialog(
      page,
      page.getByRole('main').getByRole('button', { name: texts.subscribe }),
      texts.subscribe,
    );
    await pick(page, subscribe, texts.customer, 'Ada', 'Ada Lovelace');
    await pick(page, subscribe, texts.plan, 'Gold', 'Gold');
    await subscribe.getByRole('radio', { name: 'Card on file' }).check();
    await expect
      .poll(() => subscribe.getByRole('combobox', { name: 'Saved card' }).textContent(), eventually)
      .toMatch(/^Visa •••• 4242 · 12\/\d\d$/);
    await checkScreen(page);
    await subscribe.getByRole('button', { name: texts.subscribeSubmit, exact: true }).click();
    await subscribe.waitFor({ state: 'hidden' });
    await page.getByRole('row').filter({ hasText: 'Ada Lovelace' }).click();
    const drawer = page.getByTestId('subscription-drawer');
    await expect.poll(() => invoiceStatus(drawer), eventually).toBe(texts.paid);
    await page.keyboard.press('Escape');

    // The card payment names its invoice and opens it over the payment's detail.
    await open(page, suite.portal, '/transactions/all');
    await page
      .getByText(/^Invoice \S+: Gold$/)
      .first()
      .click();
    await page.getByTestId('payment-invoice-link').click();
    const invoice = page.getByTestId('invoice-drawer');
    await visible(invoice.getByTestId('invoice-status').getByText(texts.paid));
    await visible(invoice.getByText('Gold'));
    await checkScreen(page);
    await page.keyboard.press('Escape');

    // The balance holds both (read again on the next page), and the customer's page shows the card.
    await open(page, suite.portal, `/customers/all/${customer.id}`);
    const both = await money(page, 500 + 1250, texts.locale);
    await expect.poll(() => balanceText(page), eventually).toContain(both);
    await page.getByRole('button', { name: texts.customerSection, exact: true }).click();
    const section = dialogTitled(page, `${texts.customerSection} · Ada Lovelace`);
    await visible(section.getByText(/^Visa •••• 4242/));
    await checkScreen(page);
    // Removed (recorded): the card is charged no more and leaves the list.
    await visible(section.getByText(/^Saved \d/));
    await section.getByRole('button', { name: 'Remove card' }).click();
    // It asks first, naming the card: subscriptions that charge it will stop collecting.
    const ask = page.getByRole('dialog').filter({ hasText: 'Subscriptions that charge this card' });
    await visible(ask.getByText(/^Remove .Visa •••• 4242 · \d\d\/\d\d.\?$/));
    await ask.getByRole('button', { name: 'Remove card' }).click();
    await visible(section.getByText('No saved cards'));
    await context.close();
  }, 150_000);

  it('offers "save the card" once a customer is chosen, and an honest hint when subscribing by card without one, with no sideways scroll (Arabic, 390 px)', async () => {
    const texts = languages.Arabic;
    const { company } = await companyWithCustomer(suite.portal);
    const till = await suite.portal.api<{ id: string; deviceId: string }>('POST', '/terminals', {
      token: company.token,
      body: { name: 'Till', deviceId: `TILL-${company.companySymbol}` },
    });
    await suite.portal.api('POST', '/plans', {
      token: company.token,
      body: { name: 'Gold', amountCents: 1250, interval: 'month' },
    });
    const { context, page } = await freshPage(suite.browser, phone);
    await seedStorage(page, suite.portal, {
      [tokenKey]: company.token,
      locale: texts.locale,
      activeTerminalId: till.deviceId,
    });
    await open(page, suite.portal, '/subscriptions/all');
    await waitForPath(page, '/subscriptions/all');
    const subscribe = await openDialog(
      page,
      page.getByRole('main').getByRole('button', { name: texts.subscribe }),
      texts.subscribe,
    );
    await pick(page, subscribe, texts.customer, 'Ada', 'Ada Lovelace');
    await pick(page, subscribe, texts.plan, 'Gold', 'Gold');
    await subscribe.getByRole('radio', { name: 'بطاقة محفوظة' }).check();
    await visible(subscribe.getByText('لا توجد بطاقة محفوظة لهذا العميل بعد', { exact: false }));
    await checkScreen(page);
    await page.keyboard.press('Escape');
    await subscribe.waitFor({ state: 'hidden' });

    await open(page, suite.portal, '/pendingpayments/all');
    await page.getByRole('main').getByRole('button', { name: 'تحصيل دفعة' }).first().click();
    const take = dialogTitled(page, 'تحصيل دفعة');
    const saveCard = take.getByLabel('حفظ البطاقة للمدفوعات القادمة (وافق العميل)');
    await visible(take.getByLabel('المبلغ (CAD)'));
    expect(await saveCard.count()).toBe(0);
    await pick(page, take, texts.customer, 'Ada', 'Ada Lovelace');
    await visible(saveCard);
    await checkScreen(page);
    await context.close();
  }, 90_000);

  for (const [language, viewport] of [
    ['English', phone],
    ['Arabic', desktop],
    ['Arabic', phone],
  ] as const) {
    it(`lists, opens and cancels a subscription, renames and archives its plan, with no sideways scroll (${language}, ${viewport.width} px)`, async () => {
      const texts = languages[language];
      const { company, customer } = await companyWithCustomer(suite.portal);
      const plan = await suite.portal.api<{ id: string }>('POST', '/plans', {
        token: company.token,
        body: { name: 'Gold', amountCents: 1250, interval: 'month' },
      });
      await suite.portal.api('POST', '/subscriptions', {
        token: company.token,
        body: { customerId: customer.id, planId: plan.id },
      });
      const { context, page } = await signedIn(
        suite.browser,
        suite.portal,
        company,
        texts,
        viewport,
        '/subscriptions/all',
      );
      await visible(page.getByText(texts.totals(1)));
      await checkScreen(page);
      await page.getByText('Ada Lovelace').first().click();
      const drawer = page.getByTestId('subscription-drawer');
      await expect.poll(() => invoiceStatus(drawer), eventually).toBe(texts.open);
      await checkScreen(page);
      await drawer.getByRole('button', { name: texts.cancel }).click();
      await checkScreen(page);
      await page.getByRole('button', { name: texts.cancelNow }).click();
      await expect
        .poll(() => drawer.getByTestId('subscription-status').textContent(), eventually)
        .toBe(texts.cancelled);
      // The Cancel button is gone with the action it offered: the drawer holds the focus, so the
      // keyboard still closes it.
      await expect
        .poll(() =>
          page.evaluate(
            () =>
              document.activeElement?.closest('[data-testid=subscription-drawer]') !== null &&
              document.querySelector('.MuiDialog-root') === null,
          ),
        )
        .toBe(true);
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'hidden' });
      // The plan is renamed, then archived: it stays listed, marked archived, with no actions.
      await page.getByRole('main').getByRole('button', { name: texts.plans }).click();
      const plans = dialogTitled(page, texts.plans);
      const row = plans.getByTestId('plan');
      await row.getByRole('button', { name: texts.edit }).click();
      const form = page.getByRole('dialog').filter({ has: page.getByLabel(texts.name) });
      await form.getByLabel(texts.name).fill('Gold Plus');
      await checkScreen(page);
      await form.getByRole('button', { name: texts.save }).click();
      await form.waitFor({ state: 'hidden' });
      await visible(row.getByText('Gold Plus'));
      await row.getByRole('button', { name: texts.archive }).click();
      const confirm = page.getByRole('dialog').filter({ hasText: 'Gold Plus' }).last();
      await confirm.getByRole('button', { name: texts.archive }).click();
      await visible(row.getByText(texts.archived));
      expect(await row.getByRole('button').count()).toBe(0);
      await checkScreen(page);
      await context.close();
    }, 90_000);
  }
});
