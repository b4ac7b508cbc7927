import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { type Company, operatorAccount, type Portal } from './support/portal';
import {
  arabic,
  chooseLanguage,
  freshPage,
  innerSidewaysScroll,
  loginForm,
  open,
  readingDirection,
  seedStorage,
  sidewaysOverflow,
  signedInPage,
  submitLogin,
  tokenKey,
  visible,
  waitForPath,
} from './support/screens';
import { describeInBrowser } from './support/suite';

async function operatorPage(
  suite: { browser: import('playwright-core').Browser; portal: Portal },
  viewport?: { width: number; height: number },
) {
  const { access_token: token } = await suite.portal.api<{ access_token: string }>(
    'POST',
    '/auth',
    { body: operatorAccount },
  );
  const opened = await freshPage(suite.browser, viewport);
  await seedStorage(opened.page, suite.portal, { [tokenKey]: token });
  await open(opened.page, suite.portal, '/companies');
  if (!viewport) await visible(opened.page.getByRole('columnheader', { name: 'Contact email' }));
  return opened;
}

/** The list's search waits before it asks, and the answer comes from a busy server under CI. */
const untilSettled = { timeout: 15_000 };

const rowOf = (page: Page, company: Company) =>
  page.getByRole('row').filter({ hasText: company.email });

/** Finds the company by its contact email, so the row is the only one. */
async function findCompany(page: Page, company: Company) {
  await page.getByPlaceholder('Search', { exact: true }).fill(company.email);
  await expect.poll(() => page.getByRole('row').count(), untilSettled).toBe(2);
  return rowOf(page, company);
}

/** The element is wholly within the table's visible box (not cut off by its sideways scroll). */
async function insideTable(page: Page, element: Locator): Promise<boolean> {
  const table = await page.locator('.RaDataTable-tableWrapper').boundingBox();
  const box = await element.boundingBox();
  if (!table || !box) return false;
  return box.x >= table.x - 1 && box.x + box.width <= table.x + table.width + 1;
}

/** The element's opacity times its ancestors': what the eye sees. */
const effectiveOpacity = (element: Locator) =>
  element.evaluate((start) => {
    let opacity = 1;
    for (let node: Element | null = start; node; node = node.parentElement)
      opacity *= Number(getComputedStyle(node).opacity);
    return opacity;
  });

async function choose(page: Page, company: Company, item: string) {
  await page.getByRole('button', { name: `More actions for ${company.companyName}` }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

describeInBrowser("the operator's companies", (suite) => {
  it("shows each company's contact email and finds a company by it", async () => {
    const company = await suite.portal.registerCompany();
    const { context, page } = await operatorPage(suite);
    expect(await page.title()).toBe('Companies · Issuer Portal');
    await page.getByPlaceholder('Search', { exact: true }).fill(company.email.toUpperCase());
    const rows = page.getByRole('row');
    await expect.poll(() => rows.count(), untilSettled).toBe(2);
    await visible(rows.filter({ hasText: company.email }).filter({ hasText: company.companyName }));
    // The row's actions fit the window at 1280 px.
    expect(await sidewaysOverflow(page)).toEqual([]);
    await context.close();
  });

  it('fits a company with a long contact email in the table at 1280 px, actions in view, in English and Arabic', async () => {
    const suffix = Date.now().toString(36);
    const company = await suite.portal.registerCompany({
      companyName: `Northwind Oceanographic Research Cooperative ${suffix}`,
      email: `investor-relations.department-${suffix}@northwind-oceanographic-research.example`,
    });
    const { context, page } = await operatorPage(suite);
    const row = await findCompany(page, company);
    for (const language of ['English', 'Arabic'] as const) {
      if (language === 'Arabic') {
        await chooseLanguage(page, arabic);
        await visible(page.getByRole('columnheader', { name: 'الحالة' }));
      }
      // The table scrolls inside its card when it is too wide: the row's last action would hide.
      expect(await innerSidewaysScroll(page), language).toEqual([]);
      const buttons = row.getByRole('button');
      for (const button of [buttons.first(), buttons.last()])
        expect(await insideTable(page, button), language).toBe(true);
      expect(await readingDirection(row.getByRole('link', { name: company.email }))).toBe('ltr');
    }
    await context.close();
  });

  it('shows a company on a phone as one column, its standing and actions at full strength', async () => {
    const company = await suite.portal.registerCompany();
    const { context, page } = await operatorPage(suite, { width: 390, height: 844 });
    const verify = page.getByRole('button', { name: `Verify ${company.companyName}` });
    await page.getByPlaceholder('Search', { exact: true }).fill(company.email);
    await visible(verify);
    // The search leaves this company only.
    await expect.poll(() => page.getByText('Awaiting verification').count(), untilSettled).toBe(1);
    // A dimmed button reads as disabled.
    expect(await effectiveOpacity(verify)).toBe(1);
    expect(await sidewaysOverflow(page)).toEqual([]);
    await context.close();
  });

  it('asks before verifying or granting issuer status, and does nothing when cancelled', async () => {
    const company = await suite.portal.registerCompany();
    const { context, page } = await operatorPage(suite);
    const row = await findCompany(page, company);
    await row.getByRole('button', { name: `Verify ${company.companyName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Verify ${company.companyName}?` });
    await visible(dialog);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const record = await suite.portal.api<{ verified: boolean }>(
      'GET',
      `/operator/companies/${company.companyId}`,
      { token: await operatorToken(suite.portal) },
    );
    expect(record.verified).toBe(false);

    await row.getByRole('button', { name: `Verify ${company.companyName}` }).click();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await visible(page.getByText('Company verified'));
    await choose(page, company, 'Grant issuer status');
    const grant = page.getByRole('dialog', {
      name: `Grant issuer status to ${company.companyName}?`,
    });
    await grant.getByRole('button', { name: 'Confirm' }).click();
    await visible(page.getByText('Issuer status granted'));
    await page.getByRole('button', { name: `More actions for ${company.companyName}` }).click();
    await visible(page.getByRole('menuitem', { name: 'Revoke issuer status' }));
    await page.keyboard.press('Escape');
    await context.close();
  });

  it('suspends a company with a reason: its users are told at sign-in; the history shows it; reinstating undoes it', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    const working = await signedInPage(suite.browser, suite.portal, company, '/customers/all');
    await waitForPath(working.page, '/customers/all');
    const { context, page } = await operatorPage(suite);
    const row = await findCompany(page, company);

    await choose(page, company, 'Suspend');
    const dialog = page.getByRole('dialog', { name: `Suspend ${company.companyName}?` });
    const confirm = dialog.getByRole('button', { name: 'Confirm' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(/^Reason/).fill('Chargebacks under review');
    await confirm.click();
    await visible(row.getByText('Suspended', { exact: true }));
    // A user already signed in is sent to the login page at the next call, told why.
    await working.page.reload();
    await waitForPath(working.page, '/login');
    await visible(working.page.getByText('Your company is suspended by the platform operator'));
    await working.context.close();

    const user = await freshPage(suite.browser);
    await open(user.page, suite.portal, '/login');
    await submitLogin(user.page, company);
    await visible(user.page.getByText('Your company is suspended by the platform operator'));
    expect(await loginForm(user.page).submit.isVisible()).toBe(true);

    await choose(page, company, 'History');
    const history = page.getByRole('dialog', { name: `History of ${company.companyName}` });
    const entries = history.getByTestId('company-history-entry');
    await expect.poll(() => entries.count(), untilSettled).toBe(3);
    await visible(entries.nth(2).getByText('Suspended'));
    await visible(entries.nth(2).getByText('Reason: Chargebacks under review'));
    await visible(entries.nth(2).getByText(`by ${operatorAccount.email}`));
    await history.getByRole('button', { name: 'Close' }).click();

    await choose(page, company, 'Reinstate');
    const reinstate = page.getByRole('dialog', { name: `Reinstate ${company.companyName}?` });
    await reinstate.getByLabel(/^Reason/).fill('Review closed');
    await reinstate.getByRole('button', { name: 'Confirm' }).click();
    await expect
      .poll(() => row.getByText('Suspended', { exact: true }).count(), untilSettled)
      .toBe(0);
    await submitLogin(user.page, company);
    await waitForPath(user.page, '/customers/all');
    await user.context.close();
    await context.close();
  });

  it('revokes a verification with a reason: the company awaits verification again', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    const { context, page } = await operatorPage(suite);
    await findCompany(page, company);
    await choose(page, company, 'Revoke verification');
    const dialog = page.getByRole('dialog', {
      name: `Revoke the verification of ${company.companyName}?`,
    });
    await dialog.getByLabel(/^Reason/).fill('Registration papers expired');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await visible(page.getByText('Verification revoked'));

    const user = await signedInPage(suite.browser, suite.portal, company, '/customers/all');
    await visible(user.page.getByText('Your company is awaiting verification'));
    await user.context.close();
    await context.close();
  });
});

async function operatorToken(portal: Portal) {
  const answer = await portal.api<{ access_token: string }>('POST', '/auth', {
    body: operatorAccount,
  });
  return answer.access_token;
}
