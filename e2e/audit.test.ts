import { expect, it } from 'vitest';
import {
  freshPage,
  open,
  pickOption,
  seedStorage,
  sidewaysOverflow,
  tokenKey,
} from './support/screens';
import { describeInBrowser } from './support/suite';

const languages = [
  {
    locale: 'en',
    totals: 'Events:',
    details: 'Details',
    customerAdded: 'Customer added',
    customerRecord: 'Customer',
    paymentRecord: 'Payment',
    paymentRequested: 'Payment requested',
    amount: /\$12\.50\sCAD/,
    width: 1280,
  },
  {
    locale: 'ar',
    totals: 'الأحداث:',
    details: 'التفاصيل',
    customerAdded: 'أُضيف العميل',
    customerRecord: 'العميل',
    paymentRecord: 'الدفعة',
    paymentRequested: 'طُلبت الدفعة',
    amount: /12\.50\s\$\sCAD/,
    width: 390,
  },
] as const;

describeInBrowser('audit log', (suite) => {
  it('lists the company’s events with who and what, opens one, exports the CSV', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    await suite.portal.api('POST', '/customers', {
      token: company.token,
      body: {
        email: `audit-${Date.now().toString(36)}@investors.test`,
        name: 'Ada',
        lastName: 'Audit',
      },
    });
    const terminal = await suite.portal.api<{ id: string }>('POST', '/terminals', {
      token: company.token,
      body: { name: 'Front desk', deviceId: `AU-${company.companySymbol}` },
    });
    await suite.portal.api('POST', '/payments', {
      token: company.token,
      body: {
        terminalId: terminal.id,
        amountCents: 1250,
        currency: 'CAD',
        description: 'Coffee beans',
      },
    });
    for (const language of languages) {
      const { context, page } = await freshPage(suite.browser, {
        width: language.width,
        height: 844,
      });
      await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale: language.locale });
      await open(page, suite.portal, '/audit');
      await page.getByTestId('audit-totals').waitFor({ state: 'visible' });
      expect(await page.getByTestId('audit-totals').textContent()).toContain(language.totals);
      // Events read in the reader's language; the stored type is only in an entry's details.
      const added = page.getByText(language.customerAdded, { exact: true }).first();
      await added.waitFor({ state: 'visible' });
      expect(await page.getByText('CustomerAdded').count()).toBe(0);
      // Which record, by the name its reader knows, in the table's column or, on a phone, under
      // the event.
      const record = page.getByText(`${language.customerRecord} · Ada Audit`, { exact: true });
      await record.first().waitFor({ state: 'visible' });
      // Each part isolated, so a Latin name wrapping in an Arabic line keeps the dots between parts.
      expect(await record.first().locator('bdi').allTextContents()).toEqual([
        language.customerRecord,
        'Ada Audit',
      ]);
      await page
        .getByText(`${language.paymentRecord} · Coffee beans`, { exact: true })
        .first()
        .waitFor({ state: 'visible' });
      if (language.width === 390) {
        // On a phone the time floats at the line's end, kept apart from the event's name.
        const gap = await page
          .locator('.RaSimpleList-tertiary')
          .first()
          .evaluate((time) => {
            const style = getComputedStyle(time);
            return Number.parseFloat(
              document.documentElement.dir === 'rtl' ? style.marginRight : style.marginLeft,
            );
          });
        expect(gap).toBeGreaterThanOrEqual(8);
      }
      // A money event says how much: in the table's Amount column, or on a phone after the event.
      const payment = page
        .locator('tr, li')
        .filter({ hasText: language.paymentRequested })
        .filter({ hasNotText: 'Token' });
      await payment.first().waitFor({ state: 'visible' });
      expect(await payment.first().textContent()).toMatch(language.amount);
      await added.click();
      const entry = page.getByRole('region', { name: language.customerAdded });
      await entry.getByText(language.details).waitFor({ state: 'visible' });
      await entry.getByText('CustomerAdded', { exact: true }).waitFor({ state: 'visible' });
      expect(await page.locator('pre').first().textContent()).toContain('Audit');
      expect(await page.evaluate(() => (document.body.textContent ?? '').includes('%{'))).toBe(
        false,
      );
      await page.keyboard.press('Escape');
      expect(await sidewaysOverflow(page)).toEqual([]);
      if (language.locale === 'en') {
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Export CSV' }).click(),
        ]);
        expect(download.suggestedFilename()).toBe('audit.csv');
        // The event filter offers the events by the names the log shows, not their stored types.
        await page.getByRole('button', { name: 'Add filter' }).click();
        await page.getByRole('menuitemcheckbox', { name: 'Event' }).click();
        await pickOption(
          page,
          page.getByRole('combobox', { name: 'Event' }),
          'customer a',
          'Customer added',
        );
        await expect.poll(() => page.getByText('Coffee beans', { exact: false }).count()).toBe(0);
        await added.waitFor({ state: 'visible' });
      }
      await context.close();
    }
  }, 120_000);
});
