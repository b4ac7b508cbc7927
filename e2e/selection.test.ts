import { expect, it } from 'vitest';
import {
  navItem,
  sidewaysOverflow,
  signedInPage,
  submitLogin,
  visible,
  waitForPath,
} from './support/screens';
import { describeInBrowser } from './support/suite';

describeInBrowser('row selection and star feedback', (suite) => {
  it('ends the selection after a bulk star and says what a single star does as the bulk one does', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    for (const email of ['ada@investors.test', 'grace@investors.test', 'linus@investors.test']) {
      await suite.portal.api('POST', '/customers', {
        token: company.token,
        body: { email, name: email.split('@')[0], starred: false },
      });
    }
    const { context, page } = await signedInPage(
      suite.browser,
      suite.portal,
      company,
      '/customers/all',
    );
    const rows = page.locator('tbody input[type=checkbox]');
    await rows.first().waitFor();
    await rows.nth(0).check();
    await rows.nth(1).check();
    const toolbar = page.locator('[data-test="bulk-actions-toolbar"]');
    await visible(toolbar.getByText('2 items selected'));
    await toolbar.getByRole('button', { name: 'Star', exact: true }).click();
    await visible(page.getByText('2 customers starred'));
    await expect.poll(() => rows.nth(0).isChecked()).toBe(false);
    expect(await rows.nth(1).isChecked()).toBe(false);

    await page.getByRole('button', { name: 'Star or unstar linus' }).click();
    await visible(page.getByText('1 customer starred'));
    await context.close();
  }, 60_000);

  it('keeps the bulk actions on a phone: the one-column list has its row checkboxes', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    for (const email of ['ada@phone.test', 'grace@phone.test']) {
      await suite.portal.api('POST', '/customers', {
        token: company.token,
        body: { email, name: email.split('@')[0], starred: false },
      });
    }
    const { context, page } = await signedInPage(
      suite.browser,
      suite.portal,
      company,
      '/customers/all',
      { width: 390, height: 844 },
    );
    const rows = page.locator('tbody input[type=checkbox]');
    await rows.nth(1).waitFor();
    await rows.nth(0).check();
    await rows.nth(1).check();
    const toolbar = page.locator('[data-test="bulk-actions-toolbar"]');
    await visible(toolbar.getByText('2 items selected'));
    expect(await sidewaysOverflow(page)).toEqual([]);
    await toolbar.getByRole('button', { name: 'Star', exact: true }).click();
    await visible(page.getByText('2 customers starred'));
    const starred = await suite.portal.api(
      'GET',
      `/customers?filter=${encodeURIComponent('{"starred":true}')}`,
      {
        token: company.token,
      },
    );
    expect(starred).toHaveLength(2);
    await context.close();
  }, 60_000);

  it('forgets the selection at logout: the next sign-in, in the same browser, starts with none', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    for (const email of ['ada@logout.test', 'grace@logout.test']) {
      await suite.portal.api('POST', '/customers', {
        token: company.token,
        body: { email, name: email.split('@')[0], starred: false },
      });
    }
    const { context, page } = await signedInPage(
      suite.browser,
      suite.portal,
      company,
      '/customers/all',
    );
    const rows = page.locator('tbody input[type=checkbox]');
    await rows.nth(1).waitFor();
    await rows.nth(0).check();
    await visible(page.locator('[data-test="bulk-actions-toolbar"]').getByText('1 item selected'));
    await navItem(page, 'Logout').click();
    await waitForPath(page, '/login');
    await submitLogin(page, company);
    await waitForPath(page, /^\/(?!login)/);
    await page.goto(`${suite.portal.url}/customers/all`);
    await rows.nth(1).waitFor();
    expect(await rows.nth(0).isChecked()).toBe(false);
    expect(await page.getByText('1 item selected').count()).toBe(0);
    await context.close();
  }, 60_000);
});
