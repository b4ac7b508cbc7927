import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import type { Company, Portal } from './support/portal';
import {
  dialogTitled,
  freshPage,
  open,
  seedStorage,
  sidewaysOverflow,
  tokenKey,
  visible,
} from './support/screens';
import { describeInBrowser } from './support/suite';

/** What a user reads and clicks, in each language the tests walk through. */
const languages = {
  English: {
    locale: 'en',
    changePlan: 'Change plan',
    newPlan: 'New plan',
    current: 'Current plan',
    appliesOn: 'the new plan applies from the next invoice, on',
    planChangeDone: 'Plan change scheduled',
    cancel: 'Cancel subscription',
    cancelAtEnd: 'Cancel at period end',
    cancels: 'Cancels on',
    cancelScheduled: 'Cancellation scheduled: billing stops when the current period ends',
    close: 'Close',
    settings: 'Billing settings',
    retryDays: 'Retry after (days)',
    retryInvalid: 'At most 8 whole numbers of days from 1 to 60',
    cancelAfterFinal: 'Cancel the subscription (the invoice becomes uncollectible)',
    save: 'Save',
    invoicesTab: 'Invoices',
    open: 'Open',
    openEtransfer: 'Open its e-transfer',
    collects: 'Collects invoice',
    customerSection: 'Subscriptions',
    allInvoices: 'All invoices',
  },
  Turkish: {
    locale: 'tr',
    changePlan: 'Planı değiştir',
    newPlan: 'Yeni plan',
    current: 'Geçerli plan',
    appliesOn: 'yeni plan sonraki faturadan itibaren geçerlidir',
    planChangeDone: 'Plan değişikliği planlandı',
    cancel: 'Aboneliği iptal et',
    cancelAtEnd: 'Dönem sonunda iptal et',
    cancels: 'İptal tarihi:',
    cancelScheduled: 'İptal planlandı: faturalama mevcut dönemin sonunda durur',
    close: 'Kapat',
    settings: 'Faturalama ayarları',
    retryDays: 'Yeniden deneme (gün sonra)',
    retryInvalid: '1 ile 60 arasında en çok 8 tam gün sayısı',
    cancelAfterFinal: 'Aboneliği iptal et (fatura tahsil edilemez olur)',
    save: 'Kaydet',
    invoicesTab: 'Faturalar',
    open: 'Açık',
    openEtransfer: 'E-transferini aç',
    collects: 'Tahsil ettiği fatura',
    customerSection: 'Abonelikler',
    allInvoices: 'Tüm faturalar',
  },
  Arabic: {
    locale: 'ar',
    changePlan: 'تغيير الخطة',
    newPlan: 'الخطة الجديدة',
    current: 'الخطة الحالية',
    appliesOn: 'وتسري الخطة الجديدة من الفاتورة التالية',
    planChangeDone: 'تمت جدولة تغيير الخطة',
    cancel: 'إلغاء الاشتراك',
    cancelAtEnd: 'الإلغاء في نهاية الفترة',
    cancels: 'يُلغى في',
    cancelScheduled: 'جُدول الإلغاء: تتوقف الفوترة بنهاية الفترة الحالية',
    close: 'إغلاق',
    settings: 'إعدادات الفوترة',
    retryDays: 'إعادة المحاولة بعد (أيام)',
    retryInvalid: '8 أعداد صحيحة من الأيام على الأكثر',
    cancelAfterFinal: 'إلغاء الاشتراك (تصبح الفاتورة غير قابلة للتحصيل)',
    save: 'حفظ',
    invoicesTab: 'الفواتير',
    open: 'مفتوحة',
    openEtransfer: 'فتح التحويل الإلكتروني',
    collects: 'يحصّل الفاتورة',
    customerSection: 'الاشتراكات',
    allInvoices: 'كل الفواتير',
  },
} as const;

type Texts = (typeof languages)[keyof typeof languages];

const desktop = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };
/** Polls as long as a step may take: the scheduler runs every second, then a read model. */
const eventually = { timeout: 30_000 };

interface Invoice {
  id: string;
  number: string;
  status: string;
  etransferId: string | null;
}

/** A verified company, its customer Ada, plans Gold and Silver, and Ada on Gold from now. */
async function subscribedCompany(portal: Portal) {
  const company = await portal.registerCompany();
  await portal.verify(company);
  const customer = await portal.api<{ id: string; email: string }>('POST', '/customers', {
    token: company.token,
    body: {
      email: `ada-${Date.now().toString(36)}@investors.test`,
      name: 'Ada',
      lastName: 'Lovelace',
    },
  });
  const plan = (name: string, amountCents: number) =>
    portal.api<{ id: string }>('POST', '/plans', {
      token: company.token,
      body: { name, amountCents, interval: 'month' },
    });
  const gold = await plan('Gold', 1250);
  const silver = await plan('Silver', 900);
  const subscription = await portal.api<{ id: string }>('POST', '/subscriptions', {
    token: company.token,
    body: { customerId: customer.id, planId: gold.id },
  });
  return { company, customer, gold, silver, subscription };
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

/** BILLING_SHOTS=/some/dir keeps a picture of each screen the tests check. */
const shotsDir = process.env.BILLING_SHOTS;

/**
 * No sideways scroll, no raw placeholder, with `axe` no WCAG 2.1 AA violation, and with `shot` (and
 * BILLING_SHOTS) a picture.
 */
async function checkScreen(page: Page, { axe = false, shot = '' } = {}) {
  expect(await sidewaysOverflow(page)).toEqual([]);
  expect(await page.evaluate(() => (document.body.textContent ?? '').includes('%{'))).toBe(false);
  // Dialogs and drawers slide in for 225 ms: axe and the picture see where they settle.
  if (axe || (shot && shotsDir)) await page.waitForTimeout(400);
  if (axe) expect(await axeViolations(page)).toEqual([]);
  if (shot && shotsDir) {
    await mkdir(shotsDir, { recursive: true });
    await page.screenshot({ path: join(shotsDir, `${shot}-${page.viewportSize()?.width}.png`) });
  }
}

/** The first invoice once the scheduler issued it and the collector requested its e-transfer. */
async function issuedInvoice(portal: Portal, company: Company, subscriptionId: string) {
  let invoice: Invoice | undefined;
  await expect
    .poll(async () => {
      const filter = encodeURIComponent(JSON.stringify({ subscriptionId }));
      [invoice] = await portal.api<Invoice[]>('GET', `/invoices?filter=${filter}`, {
        token: company.token,
      });
      return invoice?.etransferId ?? null;
    }, eventually)
    .not.toBeNull();
  return invoice as Invoice;
}

const subscriptionRow = (page: Page) => page.getByText('Ada Lovelace').first();

describeInBrowser('billing: plan changes, billing settings and invoices', (suite) => {
  for (const [language, viewport] of [
    ['English', desktop],
    ['Arabic', phone],
  ] as const) {
    it(`changes the plan from the next period, then cancels at period end, both shown on the subscription (${language}, ${viewport.width} px)`, async () => {
      const texts = languages[language];
      const { company, subscription } = await subscribedCompany(suite.portal);
      const { context, page } = await signedIn(
        suite.browser,
        suite.portal,
        company,
        texts,
        viewport,
        '/subscriptions/all',
      );
      if (viewport === phone) {
        // The phone list names its date: the next invoice, not when the subscription began.
        const next = page.getByTestId('next-invoice').first();
        await visible(next);
        expect(await next.textContent()).toMatch(/^الفاتورة التالية: \S/);
      }
      await subscriptionRow(page).click();
      const drawer = page.getByTestId('subscription-drawer');
      await drawer.getByRole('button', { name: texts.changePlan }).click();
      const dialog = dialogTitled(page, texts.changePlan);
      await visible(dialog.getByText(texts.current));
      await visible(dialog.getByText('Gold'));
      await visible(dialog.getByText(texts.appliesOn));
      await dialog.getByRole('combobox', { name: texts.newPlan }).click();
      // Only the other active plan is offered: the current one is no change.
      await visible(page.getByRole('option', { name: /Silver/ }));
      expect(await page.getByRole('option', { name: /Gold/ }).count()).toBe(0);
      await checkScreen(page, { shot: `change-plan-${texts.locale}` });
      await page.getByRole('option', { name: /Silver/ }).click();
      await dialog.getByRole('button', { name: texts.changePlan }).click();
      await dialog.waitFor({ state: 'hidden' });
      await visible(page.getByText(texts.planChangeDone));
      await expect
        .poll(() => drawer.getByTestId('pending-plan-change').textContent(), eventually)
        .toContain('Silver');
      const changed = await suite.portal.api<{ pendingPlanChange: { planName: string } | null }>(
        'GET',
        `/subscriptions/${subscription.id}`,
        { token: company.token },
      );
      expect(changed.pendingPlanChange?.planName).toBe('Silver');
      await checkScreen(page, { axe: true, shot: `plan-change-scheduled-${texts.locale}` });

      // Cancel at period end: the date shows, and a plan change no longer makes sense.
      await drawer.getByRole('button', { name: texts.cancel }).click();
      await page.getByRole('button', { name: texts.cancelAtEnd }).click();
      await visible(drawer.getByTestId('scheduled-cancel'));
      // It is still active: the notice says it is scheduled, not that it is cancelled.
      await visible(page.getByText(texts.cancelScheduled));
      await expect
        .poll(() => drawer.getByRole('button', { name: texts.changePlan }).count(), eventually)
        .toBe(0);
      await checkScreen(page);
      // The list says it too.
      await drawer.getByRole('button', { name: texts.close }).click();
      await drawer.waitFor({ state: 'hidden' });
      await expect
        .poll(() => page.getByTestId('subscription-scheduled').first().textContent(), eventually)
        .toContain(texts.cancels);
      // Ending with its period, it has no next invoice.
      if (viewport === phone) expect(await page.getByTestId('next-invoice').count()).toBe(0);
      await checkScreen(page, { shot: `list-scheduled-${texts.locale}` });
      await context.close();
    }, 120_000);
  }

  it('changes the billing settings, refusing a retry schedule out of order (Turkish, 1280 px)', async () => {
    const texts = languages.Turkish;
    const { company } = await subscribedCompany(suite.portal);
    const { context, page } = await signedIn(
      suite.browser,
      suite.portal,
      company,
      texts,
      desktop,
      '/subscriptions/all',
    );
    await page.getByRole('main').getByRole('button', { name: texts.settings }).click();
    const dialog = dialogTitled(page, texts.settings);
    const days = dialog.getByLabel(texts.retryDays);
    await expect.poll(() => days.inputValue(), eventually).toBe('1, 3, 5');
    await checkScreen(page, { axe: true, shot: 'billing-settings-tr' });
    await days.fill('3, 1');
    await dialog.getByRole('button', { name: texts.save }).click();
    await visible(dialog.getByText(texts.retryInvalid));
    await days.fill('2, 4');
    await dialog.getByLabel(texts.cancelAfterFinal).check();
    await dialog.getByRole('button', { name: texts.save }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await suite.portal.api('GET', '/billing/settings', { token: company.token })).toEqual({
      retryDays: [2, 4],
      afterFinalFailure: 'cancel',
    });
    await page.getByRole('main').getByRole('button', { name: texts.settings }).click();
    await expect
      .poll(() => dialogTitled(page, texts.settings).getByLabel(texts.retryDays).inputValue())
      .toBe('2, 4');
    await context.close();
  }, 120_000);

  for (const [language, viewport] of [
    ['English', desktop],
    ['Arabic', phone],
  ] as const) {
    it(`lists invoices, opens one and follows it to its e-transfer and back (${language}, ${viewport.width} px)`, async () => {
      const texts = languages[language];
      const { company, customer, subscription } = await subscribedCompany(suite.portal);
      const invoice = await issuedInvoice(suite.portal, company, subscription.id);
      const { context, page } = await signedIn(
        suite.browser,
        suite.portal,
        company,
        texts,
        viewport,
        '/subscriptions/all',
      );
      await page.getByRole('tab', { name: texts.invoicesTab }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/subscriptions/invoices');
      const row = page.getByText(invoice.number).first();
      await visible(row);
      await checkScreen(page, { shot: `invoices-${texts.locale}` });
      await row.click();
      const drawer = page.getByTestId('invoice-drawer');
      await visible(drawer.getByText(invoice.id));
      await visible(drawer.getByTestId('invoice-status').getByText(texts.open));
      await checkScreen(page, { axe: true, shot: `invoice-${texts.locale}` });

      await drawer.getByRole('button', { name: texts.openEtransfer }).click();
      const etransfer = page.getByTestId('etransfer-drawer');
      await visible(etransfer.getByText(invoice.etransferId ?? ''));
      const back = etransfer.getByTestId('etransfer-invoice-link');
      await visible(etransfer.getByText(texts.collects));
      await expect.poll(() => back.textContent()).toBe(invoice.number);
      await checkScreen(page, { axe: true, shot: `invoice-etransfer-${texts.locale}` });
      // Back to the invoice it collects: the e-transfer's drawer closes over the invoice's.
      await back.click();
      await etransfer.waitFor({ state: 'hidden' });
      await visible(drawer.getByText(invoice.id));
      // And on to its subscription.
      await drawer.getByTestId('invoice-subscription-link').click();
      const subscriptionDrawer = page.getByTestId('subscription-drawer');
      await visible(subscriptionDrawer.getByRole('heading', { name: 'Gold' }));
      await visible(subscriptionDrawer.getByText(subscription.id));
      await subscriptionDrawer.getByRole('button', { name: texts.close }).click();
      await subscriptionDrawer.waitFor({ state: 'hidden' });
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'hidden' });

      // From the e-transfers list, the request names its invoice and opens it.
      await open(page, suite.portal, '/etransfers/all');
      await page.getByText('Ada Lovelace').first().click();
      await etransfer.getByTestId('etransfer-invoice-link').click();
      await visible(page.getByTestId('invoice-drawer').getByText(invoice.id));
      await checkScreen(page);
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');

      // The customer's page lists the invoice with a way to all of them.
      await open(page, suite.portal, `/customers/all/${customer.id}`);
      await page.getByRole('button', { name: texts.customerSection, exact: true }).click();
      const section = page.getByRole('dialog');
      await visible(section.getByTestId('invoice').getByText(invoice.number));
      await section.getByRole('link', { name: texts.allInvoices }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/subscriptions/invoices');
      await visible(page.getByText(invoice.number).first());
      await context.close();
    }, 120_000);
  }

  it("shows a compliance reviewer, on the customer's page, the subscription and its invoice but no plan change (English, 1280 px)", async () => {
    const texts = languages.English;
    const { company, customer, subscription } = await subscribedCompany(suite.portal);
    const invoice = await issuedInvoice(suite.portal, company, subscription.id);
    const reviewer = {
      email: `reviewer-${Date.now().toString(36)}@maple.test`,
      password: 'glacier-Otter-77',
    };
    await suite.portal.api('POST', '/company/users', {
      token: company.token,
      body: { ...reviewer, role: 'compliance' },
    });
    const { access_token: token } = await suite.portal.api<{ access_token: string }>(
      'POST',
      '/auth',
      { body: reviewer },
    );
    const { context, page } = await signedIn(
      suite.browser,
      suite.portal,
      { ...company, token },
      texts,
      desktop,
      `/customers/all/${customer.id}`,
    );
    await page.getByRole('button', { name: texts.customerSection, exact: true }).click();
    const section = page.getByRole('dialog');
    await visible(section.getByTestId('invoice').getByText(invoice.number));
    expect(await section.getByRole('button', { name: texts.settings }).count()).toBe(0);
    await section.getByText('Gold').first().click();
    const drawer = page.getByTestId('subscription-drawer');
    await visible(drawer.getByTestId('invoice'));
    expect(await drawer.getByRole('button', { name: texts.changePlan }).count()).toBe(0);
    await drawer.getByTestId('invoice').first().click();
    const invoiceDrawer = page.getByTestId('invoice-drawer');
    await invoiceDrawer.getByRole('button', { name: texts.openEtransfer }).click();
    await visible(page.getByTestId('etransfer-drawer').getByText(invoice.etransferId ?? ''));
    await checkScreen(page, { shot: 'compliance-etransfer' });
    await context.close();
  }, 120_000);
});
