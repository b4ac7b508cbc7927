import { expect, it } from 'vitest';
import type { Portal } from './support/portal';
import {
  freshPage,
  messageUnder,
  open,
  pickOption,
  seedStorage,
  sidewaysOverflow,
  tokenKey,
  visible,
  waitForPath,
} from './support/screens';
import { describeInBrowser } from './support/suite';

const desktop = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };
let counter = 0;

/** An issuer with a terminal, an open round of 1,000 tokens at CAD 1, and an investor ready to order. */
async function issuerWithOpenRound(portal: Portal) {
  counter += 1;
  const company = await portal.registerCompany();
  await portal.verify(company);
  await portal.makeIssuer(company);
  const { token } = company;
  const terminal = await portal.api<{ id: string }>('POST', '/terminals', {
    token,
    body: { name: 'Front desk', deviceId: `till-${counter}-${Date.now().toString(36)}` },
  });
  const common = await portal.api<{ id: string }>('POST', '/share-classes', {
    token,
    body: { name: 'Common', kind: 'common', votesPerShare: 1, authorized: 100_000 },
  });
  const investor = await portal.api<{ id: string }>('POST', '/customers', {
    token,
    body: {
      name: 'Ada',
      lastName: 'Lovelace',
      email: `ada-${Date.now().toString(36)}@investors.test`,
      walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
      investorStatus: 'Documents Signed',
    },
  });
  const now = Date.now();
  const round = await portal.api<{ id: string }>('POST', '/funding-rounds', {
    token,
    body: {
      name: 'Seed round',
      handle: 'seed',
      description: 'Our first round, for early customers.',
      shareClassId: common.id,
      tokenPriceCents: 100,
      raiseAmountCents: 100_000,
      opensAt: new Date(now - 86_400_000).toISOString(),
      closesAt: new Date(now + 20 * 86_400_000).toISOString(),
    },
  });
  await portal.api('POST', `/funding-rounds/${round.id}/open`, { token });
  return { company, terminalId: terminal.id, roundId: round.id, investorId: investor.id };
}

describeInBrowser('funding rounds', (suite) => {
  it.each([
    [
      'English',
      'en',
      desktop,
      {
        order: 'New order',
        // On a desktop the tokens open the order; on a phone the whole row does.
        orderLink: /^20$/,
        tokens: 'Tokens',
        submit: 'Order and take payment',
        complete: 'Complete',
        percent: /^2% complete/,
        holders: /Cap table/,
        orderReason: /^Reason: Token order ord_[0-9a-f]{8}$/,
        payment: /^20 tokens of Seed round$/,
        paymentLink: '20 tokens of Seed round',
      },
    ],
    [
      'Arabic',
      'ar',
      phone,
      {
        order: 'طلب جديد',
        orderLink: /^Ada Lovelace/,
        tokens: 'الرموز',
        submit: 'اطلب واستلم الدفع',
        complete: 'مكتمل',
        percent: /اكتمل/,
        holders: /Cap table|جدول/,
        orderReason: /^السبب: طلب الرموز ord_[0-9a-f]{8}$/,
        // The server's description is English; the list says what the payment paid in Arabic.
        payment: /^Ada Lovelace · عدد الرموز: 20 · Seed round$/,
        paymentLink: 'عدد الرموز: 20 · Seed round',
      },
    ],
  ] as const)(
    'opens a round, orders for a customer, the card pays, the order completes (%s)',
    async (_language, locale, viewport, texts) => {
      const { company, terminalId, roundId, investorId } = await issuerWithOpenRound(suite.portal);
      const { context, page } = await freshPage(suite.browser, viewport);
      await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale });
      await open(page, suite.portal, '/fundingrounds');
      await page.getByRole('link', { name: /Seed round/ }).click();
      await waitForPath(page, `/fundingrounds/round/${roundId}/seed`);
      expect(await sidewaysOverflow(page)).toEqual([]);
      // The issuer's English description keeps its own direction in an Arabic page: its full
      // stop ends it, on the right, instead of jumping to the front.
      const description = page.getByText('Our first round, for early customers.');
      expect(await description.evaluate((element) => getComputedStyle(element).direction)).toBe(
        'ltr',
      );

      await page.getByRole('button', { name: texts.order }).click();
      const dialog = page.getByRole('dialog');
      // The investor picker is the e-transfer forms' customer input.
      await pickOption(page, dialog.getByRole('combobox').first(), 'Ada', 'Ada Lovelace');
      await dialog.getByLabel(texts.tokens).fill('20');
      await dialog.getByRole('button', { name: texts.submit }).click();
      await dialog.waitFor({ state: 'hidden' });

      await suite.portal.api('POST', `/terminals/${terminalId}/simulator/present-card`, {
        token: company.token,
      });
      await visible(page.getByText(texts.complete, { exact: true }).first());
      await open(page, suite.portal, `/fundingrounds/round/${roundId}/seed`);
      await visible(page.getByText(texts.percent).first());
      expect(await sidewaysOverflow(page)).toEqual([]);
      expect(await page.evaluate(() => (document.body.textContent ?? '').includes('%{'))).toBe(
        false,
      );

      await open(page, suite.portal, '/nftorders');
      await page.getByRole('link', { name: texts.orderLink }).click();
      await waitForPath(page, /^\/nftorders\/ord_/);
      await visible(page.getByText(/^0x[0-9a-f]{64} \(#\d+\)$/));
      expect(await sidewaysOverflow(page)).toEqual([]);

      await open(page, suite.portal, '/captable');
      await visible(page.getByRole('cell', { name: /Ada/ }).first());

      await open(page, suite.portal, '/transactions/all');
      await page.getByText(texts.payment).first().click();
      // The payment's detail opens the order it paid.
      await page.getByRole('link', { name: texts.paymentLink }).click();
      await waitForPath(page, /^\/nftorders\/ord_/);

      // The order moved the investor on: the history says why in the reader's language.
      await open(page, suite.portal, `/customers/all/${investorId}`);
      await visible(page.getByText(texts.orderReason).first());
      // The round the investor funded, by its name, opens the round.
      await page.getByRole('link', { name: 'Seed round', exact: true }).click();
      await waitForPath(page, `/fundingrounds/round/${roundId}/seed`);
      await context.close();
    },
  );

  it('asks before closing or cancelling a round; a round whose tokens are paid for can only be closed (Arabic at 390 px, English at 1280 px)', async () => {
    const { company, terminalId, roundId, investorId } = await issuerWithOpenRound(suite.portal);
    const { token } = company;
    await suite.portal.api('POST', '/token-orders', {
      token,
      body: {
        roundId,
        customerId: investorId,
        tokens: 20,
        payment: { method: 'terminal', terminalId },
      },
    });
    await suite.portal.api('POST', `/terminals/${terminalId}/simulator/present-card`, { token });
    await expect
      .poll(
        async () =>
          (
            await suite.portal.api<{ tokensPurchased: number }>(
              'GET',
              `/funding-rounds/${roundId}`,
              { token },
            )
          ).tokensPurchased,
      )
      .toBe(20);
    const { context, page } = await freshPage(suite.browser, phone);
    await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale: 'ar' });
    await open(page, suite.portal, `/fundingrounds/round/${roundId}/seed`);
    await visible(page.getByText('مفتوحة', { exact: true }));
    // Paid tokens may be with the investor already: no "Cancel round", only "Close round".
    expect(await page.getByRole('button', { name: 'إلغاء الجولة' }).count()).toBe(0);
    const close = page.getByRole('button', { name: 'إغلاق الجولة' });
    await close.click();
    const dialog = page.getByRole('dialog');
    await visible(dialog.getByText(/إغلاق .Seed round.؟/));
    expect(await sidewaysOverflow(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'رجوع' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(
      (await suite.portal.api<{ status: string }>('GET', `/funding-rounds/${roundId}`, { token }))
        .status,
    ).toBe('open');
    await close.click();
    await dialog.getByRole('button', { name: 'إغلاق الجولة' }).click();
    await visible(page.getByText('مغلقة', { exact: true }));
    // An ended round no longer says when it closes or what is left.
    await visible(page.getByText(/أُغلقت أمام الطلبات/));
    expect(await page.getByText(/المتاح/).count()).toBe(0);
    await context.close();

    const draft = await suite.portal.api<{ id: string }>('POST', '/funding-rounds', {
      token,
      body: {
        name: 'Bridge',
        handle: 'bridge',
        shareClassId: (
          await suite.portal.api<{ id: string }[]>('GET', '/share-classes', { token })
        )[0]?.id,
        tokenPriceCents: 100,
        raiseAmountCents: 50_000,
        opensAt: new Date(Date.now() + 86_400_000).toISOString(),
        closesAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      },
    });
    const english = await freshPage(suite.browser, desktop);
    await seedStorage(english.page, suite.portal, { [tokenKey]: company.token, locale: 'en' });
    await open(english.page, suite.portal, `/fundingrounds/round/${draft.id}/bridge`);
    await english.page.getByRole('button', { name: 'Cancel round' }).click();
    const ask = english.page.getByRole('dialog');
    await visible(ask.getByText(/^Cancel .Bridge.\?$/));
    await visible(
      ask.getByText(
        'The round is called off: no orders can be placed in it. This cannot be undone.',
      ),
    );
    await ask.getByRole('button', { name: 'Cancel round' }).click();
    await visible(english.page.getByText('Cancelled', { exact: true }));
    expect(
      (await suite.portal.api<{ status: string }>('GET', `/funding-rounds/${draft.id}`, { token }))
        .status,
    ).toBe('cancelled');
    await english.context.close();
  });

  it('opens an order on a 390 px phone by tapping anywhere on its row, or by Enter on the focused row', async () => {
    const { company, terminalId, roundId, investorId } = await issuerWithOpenRound(suite.portal);
    const order = await suite.portal.api<{ id: string }>('POST', '/token-orders', {
      token: company.token,
      body: {
        roundId,
        customerId: investorId,
        tokens: 20,
        payment: { method: 'terminal', terminalId },
      },
    });
    const context = await suite.browser.newContext({ viewport: phone, hasTouch: true });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale: 'en' });
    await open(page, suite.portal, '/nftorders/all');
    // The investor's name was a link to the customer, the date no link at all: both open the order.
    await page.getByText('Ada Lovelace', { exact: true }).tap();
    await waitForPath(page, `/nftorders/${order.id}`);
    await page.goBack();
    const row = page.getByRole('link', { name: /^Ada Lovelace/ });
    await row.getByText(/\d{4}/).tap();
    await waitForPath(page, `/nftorders/${order.id}`);
    await page.goBack();
    // A key pressed first makes the focus a keyboard one, as reaching the row by Tab does.
    // Once in a CI run the first focus after coming back showed no ring: each try focuses afresh.
    await expect
      .poll(async () => {
        await row.evaluate((element: HTMLElement) => element.blur());
        await page.keyboard.press('Shift');
        await row.focus();
        return row.evaluate((element) => getComputedStyle(element).outlineStyle);
      })
      .toBe('solid');
    await page.keyboard.press('Enter');
    await waitForPath(page, `/nftorders/${order.id}`);
    expect(await sidewaysOverflow(page)).toEqual([]);
    await context.close();
  });

  it('says in Turkish what an investor lacks before ordering (no wallet, KYC not done), at 390 px', async () => {
    const { company, roundId } = await issuerWithOpenRound(suite.portal);
    await suite.portal.api('POST', '/customers', {
      token: company.token,
      body: { name: 'Bora', lastName: 'Yılmaz', email: `bora-${Date.now().toString(36)}@x.test` },
    });
    const { context, page } = await freshPage(suite.browser, phone);
    await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale: 'tr' });
    await open(page, suite.portal, `/fundingrounds/round/${roundId}/seed`);
    await page.getByRole('button', { name: 'Yeni sipariş' }).click();
    const dialog = page.getByRole('dialog');
    const investor = dialog.getByRole('combobox').first();
    await pickOption(page, investor, 'Bora', 'Bora Yılmaz');
    await dialog.getByRole('button', { name: 'Sipariş ver ve ödemeyi al' }).click();
    await expect
      .poll(() => messageUnder(investor))
      .toBe(
        'Bu yatırımcı henüz sipariş veremez: profilinde geçerli bir Ethereum cüzdan adresi yok; yatırımcı durumu en az KYC tamamlandı olmalı',
      );
    expect(await sidewaysOverflow(page)).toEqual([]);
    await context.close();
  });

  it('orders by e-transfer: the investor pays the request, the order completes and links to it', async () => {
    const { company, roundId } = await issuerWithOpenRound(suite.portal);
    const { context, page } = await freshPage(suite.browser, phone);
    await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale: 'en' });
    await open(page, suite.portal, `/fundingrounds/round/${roundId}/seed`);
    await page.getByRole('button', { name: 'New order' }).click();
    const dialog = page.getByRole('dialog');
    await pickOption(page, dialog.getByRole('combobox').first(), 'Ada', 'Ada Lovelace');
    await dialog.getByLabel('Tokens').fill('15');
    await dialog.getByLabel('Interac e-transfer request to the investor').check();
    await visible(dialog.getByText(/gets a money request by email/));
    expect(await sidewaysOverflow(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Order and take payment' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const orders = await suite.portal.api<{ id: string; etransferId: string | null }[]>(
      'GET',
      '/token-orders',
      { token: company.token },
    );
    const order = orders[0];
    expect(order?.etransferId).toMatch(/^et_/);
    await open(page, suite.portal, `/nftorders/${order?.id}`);
    await visible(page.getByText('Interac e-transfer', { exact: true }));
    await suite.portal.api('POST', `/etransfers/${order?.etransferId}/simulator/deposit`, {
      token: company.token,
    });
    await visible(page.getByText('Complete', { exact: true }).first());
    await page.getByTestId('order-etransfer-link').click();
    await visible(page.getByText('Deposited').first());
    expect(await sidewaysOverflow(page)).toEqual([]);
    await context.close();
  });

  it('says so for a round that does not exist, and lists the orders at /nftorders', async () => {
    const { company } = await issuerWithOpenRound(suite.portal);
    const { context, page } = await freshPage(suite.browser, phone);
    await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale: 'en' });
    await open(page, suite.portal, '/fundingrounds/round/rnd_missing/none');
    await visible(page.getByText('This funding round does not exist'));
    await open(page, suite.portal, '/nftorders');
    await waitForPath(page, '/nftorders/all');
    await visible(page.getByText('No token orders yet'));
    // An empty list says where orders come from.
    await visible(page.getByText('Investors’ orders show here once a round is open to orders.'));
    expect(await sidewaysOverflow(page)).toEqual([]);
    await context.close();
  });
});
