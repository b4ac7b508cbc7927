import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Company, Portal } from './support/portal';
import {
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
    title: 'E-Transfers',
    request: 'Request money',
    send: 'Send money',
    customer: 'Customer',
    amount: 'Amount (CAD)',
    message: 'Message',
    reference: 'Reference',
    requestSubmit: /^Request /,
    sendSubmit: /^Send /,
    sent: 'Sent',
    deposited: 'Deposited',
    simulateDeposit: 'Simulate deposit',
    simulateIncoming: 'Simulate incoming e-transfer',
    fromEmail: 'Sender’s email',
    sandboxSend: 'Send',
    unmatched: 'Unmatched',
    match: 'Match to a customer',
    reason: 'Reason',
    matchSubmit: 'Match',
    nothingToMatch: 'Nothing to match: every incoming e-transfer found its customer',
    empty: 'No e-transfers yet',
    insufficient: (balance: string, amount: string) =>
      `The balance of ${balance} does not cover ${amount}. Nothing was sent.`,
    totals: (count: number) => `E-transfers: ${count}`,
    customerSection: 'E-transfers',
  },
  Turkish: {
    locale: 'tr',
    title: 'E-Transferler',
    request: 'Para iste',
    send: 'Para gönder',
    customer: 'Müşteri',
    amount: 'Tutar (CAD)',
    message: 'Mesaj',
    reference: 'Referans',
    requestSubmit: / iste$/,
    sendSubmit: / gönder$/,
    sent: 'Gönderildi',
    deposited: 'Yatırıldı',
    simulateDeposit: 'Yatırmayı simüle et',
    simulateIncoming: 'Gelen e-transferi simüle et',
    fromEmail: 'Gönderenin e-postası',
    sandboxSend: 'Gönder',
    unmatched: 'Eşleşmeyen',
    match: 'Müşteriyle eşleştir',
    reason: 'Neden',
    matchSubmit: 'Eşleştir',
    nothingToMatch: 'Eşleştirilecek bir şey yok: her gelen e-transfer müşterisini buldu',
    empty: 'Henüz e-transfer yok',
    insufficient: (balance: string, amount: string) =>
      `${balance} tutarındaki bakiye ${amount} tutarını karşılamıyor. Hiçbir şey gönderilmedi.`,
    totals: (count: number) => `E-transfer: ${count}`,
    customerSection: 'E-transferler',
  },
  Arabic: {
    locale: 'ar',
    title: 'التحويلات الإلكترونية',
    request: 'طلب أموال',
    send: 'إرسال أموال',
    customer: 'العميل',
    amount: 'المبلغ (CAD)',
    message: 'الرسالة',
    reference: 'المرجع',
    requestSubmit: /^طلب /,
    sendSubmit: /^إرسال /,
    sent: 'مُرسل',
    deposited: 'مودَع',
    simulateDeposit: 'محاكاة إيداع',
    simulateIncoming: 'محاكاة تحويل وارد',
    fromEmail: 'البريد الإلكتروني للمرسل',
    sandboxSend: 'إرسال',
    unmatched: 'غير المطابَقة',
    match: 'مطابقة مع عميل',
    reason: 'السبب',
    matchSubmit: 'مطابقة',
    nothingToMatch: 'لا شيء للمطابقة: وجد كل تحويل وارد عميله',
    empty: 'لا توجد تحويلات إلكترونية بعد',
    insufficient: (balance: string, amount: string) =>
      `الرصيد ${balance} لا يغطي ${amount}. لم يُرسل شيء.`,
    totals: (count: number) => `التحويلات الإلكترونية: ${count}`,
    customerSection: 'التحويلات الإلكترونية',
  },
} as const;

type Texts = (typeof languages)[keyof typeof languages];

const desktop = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };

/** Polls as long as a step may take: the provider answers by webhook, then a read model. */
const eventually = { timeout: 20_000 };

/** ETRANSFERS_SHOTS=/some/dir keeps a picture of each screen the tests pass through. */
const shotsDir = process.env.ETRANSFERS_SHOTS;
async function shoot(page: Page, name: string) {
  if (!shotsDir) return;
  await mkdir(shotsDir, { recursive: true });
  // Dialogs and drawers slide in for 225 ms: the picture is of where they settle.
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(shotsDir, `${name}.png`) });
}

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

const companyCustomers = (portal: Portal, company: Company) =>
  portal.api<Customer[]>('GET', '/customers', { token: company.token });

async function etransfersPage(
  browser: Parameters<typeof freshPage>[0],
  portal: Portal,
  company: Company,
  texts: Texts,
  viewport: typeof desktop,
  path = '/etransfers',
) {
  const opened = await freshPage(browser, viewport);
  await seedStorage(opened.page, portal, { [tokenKey]: company.token, locale: texts.locale });
  await open(opened.page, portal, path);
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

async function checkScreen(page: Page) {
  expect(await sidewaysOverflow(page)).toEqual([]);
  expect(await page.evaluate(() => (document.body.textContent ?? '').includes('%{'))).toBe(false);
}

/** Text as read, without the invisible isolates that keep amounts left to right inside Arabic. */
const withoutIsolates = (text: string | null) => (text ?? '').replace(/[\u2066-\u2069]/g, '');

const balanceText = (page: Page) => page.getByTestId('balance').first().textContent();

/**
 * Opens a money dialog and picks the customer in it. Under a loaded CI machine the dialog has
 * shown without its picker, or lost it while it was being typed into, for 15 s (three times in
 * some thirty runs, never reproduced alone, nor under a CPU burner): each try gives the picker
 * 12 s, prints what the dialog showed instead, closes the dialog and opens it again, three tries.
 */
async function openMoneyDialog(
  page: Page,
  texts: Texts,
  action: string,
  customer: string,
): Promise<Locator> {
  const button = page.getByRole('main').getByRole('button', { name: action });
  for (let attempt = 1; ; attempt++) {
    const dialog = await openDialog(page, button, action);
    try {
      await pickCustomer(page, dialog, texts, customer);
      return dialog;
    } catch (error) {
      if (attempt === 3) throw error;
      const shown = await dialog.textContent({ timeout: 1_000 }).catch(() => '(no dialog)');
      const pickers = await dialog.getByRole('combobox').count();
      console.warn(
        `${action}: could not pick ${customer} (try ${attempt}; ${pickers} visible pickers): ${shown}`,
      );
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    }
  }
}

async function pickCustomer(page: Page, dialog: Locator, texts: Texts, name: string) {
  const combobox = dialog.getByRole('combobox', { name: texts.customer });
  await combobox.waitFor({ timeout: 8_000 });
  await pickOption(page, combobox, name.split(' ')[0] ?? '', name, 12_000);
}

/** Fills Request money and submits it; answers once the dialog has closed. */
async function requestMoney(page: Page, texts: Texts, amount: string, reference: string) {
  const dialog = await openMoneyDialog(page, texts, texts.request, 'Ada Lovelace');
  await dialog.getByLabel(texts.amount).fill(amount);
  await dialog.getByLabel(texts.message).fill('Subscription for the seed round');
  await dialog.getByLabel(texts.reference).fill(reference);
  await shoot(page, `${texts.locale}-${page.viewportSize()?.width}-request`);
  await checkScreen(page);
  await dialog.getByRole('button', { name: texts.requestSubmit }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describeInBrowser('e-transfers', (suite) => {
  it('requests money, the customer deposits it, pays a payout the balance covers and matches an incoming one (English, 1280 px)', async () => {
    const texts = languages.English;
    const { company, customer } = await companyWithCustomer(suite.portal);
    const { context, page } = await etransfersPage(
      suite.browser,
      suite.portal,
      company,
      texts,
      desktop,
    );
    await waitForPath(page, '/etransfers/all');
    await visible(page.getByText(texts.empty));
    await checkScreen(page);

    await requestMoney(page, texts, '25', 'INV-25');
    const row = page.getByRole('row').filter({ hasText: 'INV-25' });
    await visible(row.getByText('Ada Lovelace'));
    await visible(row.getByText(texts.sent));
    await visible(page.getByText(texts.totals(1)));

    // The sandbox's customer pays: deposited, and the sidebar's balance grows.
    await row.click();
    const drawer = page.getByTestId('etransfer-drawer');
    await drawer.getByRole('button', { name: texts.simulateDeposit }).click();
    await expect
      .poll(() => drawer.getByTestId('etransfer-status').textContent(), eventually)
      .toBe(texts.deposited);
    const paid = await money(page, 2500, texts.locale);
    await expect.poll(() => balanceText(page), eventually).toContain(paid);
    await shoot(page, 'en-1280-deposited');
    await checkScreen(page);
    await page.keyboard.press('Escape');
    await visible(row.getByText(texts.deposited));
    await page.getByRole('tab', { name: texts.deposited }).click();
    await waitForPath(page, '/etransfers/deposited');
    await visible(page.getByRole('row').filter({ hasText: 'INV-25' }));

    // A payout beyond the balance is refused and says so; one it covers leaves the balance.
    const payout = await openMoneyDialog(page, texts, texts.send, 'Ada Lovelace');
    await payout.getByLabel(texts.amount).fill('40');
    await payout.getByRole('button', { name: texts.sendSubmit }).click();
    await visible(payout.getByTestId('payout-refused'));
    const refusal = await payout.getByTestId('payout-refused').textContent();
    expect(withoutIsolates(refusal)).toBe(
      texts.insufficient(paid, await money(page, 4000, texts.locale)),
    );
    await shoot(page, 'en-1280-payout-refused');
    await checkScreen(page);
    await payout.getByLabel(texts.amount).fill('10');
    await payout.getByRole('button', { name: texts.sendSubmit }).click();
    await payout.waitFor({ state: 'hidden' });
    const left = await money(page, 1500, texts.locale);
    await expect.poll(() => balanceText(page), eventually).toContain(left);
    await page.getByRole('tab', { name: texts.sent }).click();
    await visible(page.getByRole('row').filter({ hasText: customer.email }));

    // Someone nobody knows sends money: it waits in Unmatched until a user matches it.
    await page.getByRole('tab', { name: texts.unmatched }).click();
    await waitForPath(page, '/etransfers/unmatched');
    await visible(page.getByText(texts.nothingToMatch));
    await page.getByRole('main').getByRole('button', { name: texts.simulateIncoming }).click();
    const incoming = page.getByRole('dialog');
    await incoming.getByLabel(texts.fromEmail).fill('uncle-bob@elsewhere.test');
    await incoming.getByLabel(texts.amount).fill('7.50');
    await incoming.getByRole('button', { name: texts.sandboxSend, exact: true }).click();
    await incoming.waitFor({ state: 'hidden' });
    const stranger = page.getByRole('row').filter({ hasText: 'uncle-bob@elsewhere.test' });
    // The list and the sidebar's balance reload once the money has landed.
    await visible(stranger);
    await expect
      .poll(() => balanceText(page), eventually)
      .toContain(await money(page, 2250, texts.locale));
    await stranger.click();
    await drawer.getByRole('button', { name: texts.match }).click();
    const match = page.getByRole('dialog').filter({ has: page.getByLabel(texts.reason) });
    await pickCustomer(page, match, texts, 'Ada Lovelace');
    await match.getByLabel(texts.reason).fill('Sent from her uncle’s account');
    await shoot(page, 'en-1280-match');
    await checkScreen(page);
    await match.getByRole('button', { name: texts.matchSubmit, exact: true }).click();
    await match.waitFor({ state: 'hidden' });
    await visible(drawer.getByText('Sent from her uncle’s account'));
    await visible(drawer.getByText('Ada Lovelace'));
    await page.keyboard.press('Escape');
    await visible(page.getByText(texts.nothingToMatch));

    // In Transactions, the payout's row opens its e-transfer, and from there the e-transfer itself.
    await open(page, suite.portal, '/transactions/all');
    await page.getByRole('row').filter({ hasText: 'Payout' }).click();
    const summary = page.getByTestId('transaction-drawer').getByTestId('transaction-etransfer');
    await visible(summary.getByText(texts.sent));
    await visible(summary.getByText(customer.email));
    await checkScreen(page);
    await summary.getByRole('link', { name: 'Open in E-Transfers' }).click();
    await waitForPath(page, '/etransfers/all');
    await visible(page.getByText(texts.totals(1)));
    await visible(page.getByRole('row').filter({ hasText: customer.email }).getByText(texts.sent));

    // The customer's page lists the three.
    await open(page, suite.portal, `/customers/all/${customer.id}`);
    await page.getByRole('button', { name: texts.customerSection, exact: true }).click();
    const section = page.getByRole('dialog');
    await visible(section.getByText(texts.totals(3)));
    await shoot(page, 'en-1280-customer');
    await checkScreen(page);
    await context.close();
  }, 120_000);

  it('finds a request by its reference; the customer declines one, the company cancels another (Turkish, 1280 px)', async () => {
    const texts = languages.Turkish;
    const { company } = await companyWithCustomer(suite.portal);
    const { context, page } = await etransfersPage(
      suite.browser,
      suite.portal,
      company,
      texts,
      desktop,
    );
    await visible(page.getByText(texts.empty));
    await requestMoney(page, texts, '1.250,50', 'TR-DECLINE');
    await requestMoney(page, texts, '3', 'TR-CANCEL');
    await visible(page.getByText(texts.totals(2)));
    await checkScreen(page);

    // Search: the reference finds its request alone.
    await page.getByRole('main').getByPlaceholder('Ara').fill('TR-DECLINE');
    await visible(page.getByText(texts.totals(1)));
    const declined = page.getByRole('row').filter({ hasText: 'TR-DECLINE' });
    await visible(declined.getByText(await money(page, 125_050, texts.locale)));
    await declined.click();
    const drawer = page.getByTestId('etransfer-drawer');
    await drawer.getByRole('button', { name: 'Reddi simüle et' }).click();
    await expect
      .poll(() => drawer.getByTestId('etransfer-status').textContent(), eventually)
      .toBe('Reddedildi');
    // Nothing is left to do with a declined request.
    expect(await drawer.getByRole('button', { name: 'Talebi iptal et' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    await page.getByRole('main').getByPlaceholder('Ara').fill('TR-CANCEL');
    await page.getByRole('row').filter({ hasText: 'TR-CANCEL' }).click();
    await drawer.getByRole('button', { name: 'Talebi iptal et' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'iptal edilsin mi' });
    await confirm.getByRole('button', { name: 'Talebi iptal et' }).click();
    await expect
      .poll(() => drawer.getByTestId('etransfer-status').textContent(), eventually)
      .toBe('İptal edildi');
    expect(await drawer.getByRole('button', { name: texts.simulateDeposit }).count()).toBe(0);
    // No money moved: the amount is struck through, unsigned, and its end is not "completed".
    const amount = drawer.getByTestId('etransfer-amount');
    await expect
      .poll(() => amount.evaluate((element) => getComputedStyle(element).textDecorationLine))
      .toBe('line-through');
    expect(await amount.textContent()).not.toMatch(/^[+-]/);
    expect(await drawer.getByText('Tamamlandı', { exact: true }).count()).toBe(0);
    await checkScreen(page);
    await context.close();
  }, 120_000);

  it('shows a failed payout in Transactions as the money that left and the money that came back (English, 1280 px)', async () => {
    const { company, customer } = await companyWithCustomer(suite.portal);
    const { token } = company;
    const request = await suite.portal.api<{ id: string }>('POST', '/etransfers/requests', {
      token,
      body: { customerId: customer.id, amountCents: 5000 },
    });
    await suite.portal.api('POST', `/etransfers/${request.id}/simulator/deposit`, { token });
    // The sandbox's recipients whose email ends in "+unregistered" are not registered for Interac.
    const nora = await suite.portal.api<Customer>('POST', '/customers', {
      token,
      body: { email: `nora-${Date.now().toString(36)}+unregistered@investors.test`, name: 'Nora' },
    });
    await expect
      .poll(async () => {
        const payout = await fetch(`${suite.portal.url}/api/etransfers/payouts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ customerId: nora.id, amountCents: 1500 }),
        });
        return payout.status;
      }, eventually)
      .toBe(201);
    const filter = encodeURIComponent(JSON.stringify({ kind: 'payout' }));
    await expect
      .poll(
        async () =>
          (await suite.portal.api<unknown[]>('GET', `/transactions?filter=${filter}`, { token }))
            .length,
        eventually,
      )
      .toBe(2);
    const { context, page } = await freshPage(suite.browser, desktop);
    await seedStorage(page, suite.portal, { [tokenKey]: token, locale: 'en' });
    await open(page, suite.portal, '/transactions/all');
    const returned = page
      .getByRole('row')
      .filter({ hasText: 'Returned to the balance: the payout failed' });
    await visible(returned);
    expect(await returned.textContent()).toContain('$15.00');
    expect(await returned.textContent()).not.toContain('-$15.00');
    // The payout itself: the money that left, shown as it moved the balance, not struck through.
    const sent = page.getByRole('row').filter({ hasText: 'Payout' }).filter({ hasText: '-$15.00' });
    await visible(sent);
    await context.close();
  });

  it('requests money and sees it deposited on a phone (Arabic, 390 px)', async () => {
    const texts = languages.Arabic;
    const { company } = await companyWithCustomer(suite.portal);
    const { context, page } = await etransfersPage(
      suite.browser,
      suite.portal,
      company,
      texts,
      phone,
    );
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dir), eventually)
      .toBe('rtl');
    await visible(page.getByText(texts.empty));
    await checkScreen(page);
    await requestMoney(page, texts, '12.50', 'AR-1');
    const item = page.getByRole('main').getByRole('listitem').filter({ hasText: 'Ada Lovelace' });
    await visible(item.getByText(texts.sent));
    await checkScreen(page);
    await item.click();
    const drawer = page.getByTestId('etransfer-drawer');
    await drawer.getByRole('button', { name: texts.simulateDeposit }).click();
    await expect
      .poll(() => drawer.getByTestId('etransfer-status').textContent(), eventually)
      .toBe(texts.deposited);
    await checkScreen(page);
    await page.keyboard.press('Escape');
    await visible(item.getByText(texts.deposited));
    await shoot(page, 'ar-390-list');
    // The sidebar (a drawer on a phone) shows the new balance.
    await page.locator('header button').first().click();
    const paid = await money(page, 1250, texts.locale);
    await expect.poll(() => balanceText(page), eventually).toContain(paid);
    await context.close();
  }, 120_000);

  it('fits the window with rows, dialogs and the drawer open, in English and Arabic at 1280 and 390 px', async () => {
    const { company } = await companyWithCustomer(suite.portal);
    await suite.portal.api('POST', '/etransfers/simulator/incoming', {
      token: company.token,
      body: {
        fromEmail: 'a-very-long-sender-address-for-wrapping@some-bank.example.test',
        amountCents: 123_456,
      },
    });
    for (const texts of [languages.English, languages.Arabic]) {
      for (const viewport of [desktop, phone]) {
        const { context, page } = await etransfersPage(
          suite.browser,
          suite.portal,
          company,
          texts,
          viewport,
          '/etransfers/unmatched',
        );
        const label = `${texts.locale} ${viewport.width}px`;
        await expect
          .poll(
            () => page.getByRole('main').getByText('some-bank.example.test').count(),
            eventually,
          )
          .toBeGreaterThan(0);
        expect(await sidewaysOverflow(page), label).toEqual([]);
        await shoot(page, `${texts.locale}-${viewport.width}-unmatched`);
        await page.getByRole('main').getByText('some-bank.example.test').first().click();
        await visible(page.getByTestId('etransfer-drawer'));
        expect(await sidewaysOverflow(page), `${label} drawer`).toEqual([]);
        await shoot(page, `${texts.locale}-${viewport.width}-drawer`);
        await page
          .getByTestId('etransfer-drawer')
          .getByRole('button', { name: texts.match })
          .click();
        await visible(page.getByRole('dialog').getByLabel(texts.reason));
        await shoot(page, `${texts.locale}-${viewport.width}-match`);
        await checkScreen(page);
        await context.close();
      }
    }
  }, 120_000);

  it('shows a compliance reviewer the e-transfers and their detail but no command (English, 1280 px)', async () => {
    const { company } = await companyWithCustomer(suite.portal);
    const request = await suite.portal.api<{ id: string }>('POST', '/etransfers/requests', {
      token: company.token,
      body: {
        customerId: (await companyCustomers(suite.portal, company))[0]?.id,
        amountCents: 900,
        reference: 'AUDIT-9',
      },
    });
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
      {
        body: reviewer,
      },
    );
    const texts = languages.English;
    const { context, page } = await etransfersPage(
      suite.browser,
      suite.portal,
      { ...company, token },
      texts,
      desktop,
    );
    const row = page.getByRole('row').filter({ hasText: 'AUDIT-9' });
    await visible(row);
    expect(await page.getByRole('button', { name: texts.request }).count()).toBe(0);
    expect(await page.getByRole('button', { name: texts.send }).count()).toBe(0);
    await row.click();
    const drawer = page.getByTestId('etransfer-drawer');
    await visible(drawer.getByText(request.id));
    expect(await drawer.getByRole('button', { name: texts.simulateDeposit }).count()).toBe(0);
    expect(await drawer.getByRole('button', { name: 'Cancel request' }).count()).toBe(0);
    await context.close();
  }, 120_000);
});
