import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Company, Portal } from './support/portal';
import {
  dateField,
  freshPage,
  open,
  seedStorage,
  tokenKey,
  typeDate,
  visible,
} from './support/screens';
import { describeInBrowser } from './support/suite';

const eventually = { timeout: 15_000 };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A customer whose every visible fact changed after `moment`: registered before it; after it a
 * failed KYC (with a reason), the lead status Hot and a star.
 */
async function customerWithAPast(portal: Portal, company: Company) {
  const customer = await portal.api<{ id: string }>('POST', '/customers', {
    token: company.token,
    body: { email: `ines-${Date.now().toString(36)}@investors.test`, name: 'Ines' },
  });
  const call = (path: string, body?: unknown) =>
    portal.api('POST', `/customers/${customer.id}/${path}`, { token: company.token, body });
  await call('investor-status', { status: 'Registered with the product' });
  // Whole seconds either side: the moment is shared as an ISO time, the picker has seconds.
  await pause(1100);
  const moment = new Date();
  await pause(1100);
  await call('investor-status', { status: 'KYC Failed', reason: 'The passport had expired' });
  await call('lead-status', { leadStatus: 'Hot' });
  await call('toggle-star');
  return { id: customer.id, moment };
}

async function companyPage(suite: { browser: import('playwright-core').Browser; portal: Portal }) {
  const company = await suite.portal.registerCompany();
  await suite.portal.verify(company);
  const opened = await freshPage(suite.browser, { width: 1280, height: 1000 });
  await seedStorage(opened.page, suite.portal, { [tokenKey]: company.token, locale: 'en' });
  return { company, ...opened };
}

const statusCard = (page: Page) => page.getByRole('region', { name: 'Investor status' });
const history = (page: Page) => page.getByRole('region', { name: 'History' });
const details = (page: Page) => page.getByRole('region', { name: 'Details' });
const command = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

describeInBrowser('the as-of view', (suite) => {
  it('shows everything as it was at the shared moment, with commands off, empty fields folded', async () => {
    const { company, page, context } = await companyPage(suite);
    const { id, moment } = await customerWithAPast(suite.portal, company);
    // The link a reviewer shares: the moment is in the address.
    await open(page, suite.portal, `/customers/all/${id}?asOf=${moment.toISOString()}`);

    await visible(statusCard(page).getByText('Current status: Registered with the product'));
    await visible(statusCard(page).getByText('Cold', { exact: true }));
    expect(await statusCard(page).getByText('KYC Failed').count()).toBe(0);
    expect(await page.getByTestId('starred-mark').count()).toBe(0);
    await visible(page.getByTestId('as-of-note'));
    expect(await page.getByTestId('as-of-note').textContent()).toContain('Commands are off');
    for (const name of ['Star', 'Edit', 'Send notification']) {
      expect(await command(page, name).isDisabled()).toBe(true);
    }
    // No workflow step and no lead-status choice to click.
    expect(await statusCard(page).getByRole('button').count()).toBe(0);

    // The history stops at the moment: added and registered, not the failure after it.
    await visible(history(page).getByTestId('history-cut'));
    await expect.poll(() => history(page).getByTestId('history-entry').count()).toBe(2);
    expect(await history(page).getByText('The passport had expired').count()).toBe(0);

    // Empty fields fold into one line instead of a dozen "(empty)" rows.
    await visible(details(page).getByTestId('empty-fields'));
    expect(await details(page).getByText('(empty)').count()).toBe(0);
    expect(await details(page).getByTestId('empty-fields').textContent()).toContain('Phone');

    // Back to now: today's facts, commands on, the moment gone from the address.
    await page.getByRole('button', { name: 'Back to now' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.has('asOf'), eventually).toBe(false);
    await visible(statusCard(page).getByText('Current status: KYC Failed'));
    await visible(page.getByTestId('starred-mark'));
    expect(await command(page, 'Edit').isDisabled()).toBe(false);
    await expect.poll(() => history(page).getByTestId('history-entry').count()).toBe(5);

    // Choosing a moment with the picker puts it in the address, for the next reader.
    const local = new Date(moment.getTime() - moment.getTimezoneOffset() * 60_000);
    await typeDate(dateField(page, 'As of'), local.toISOString().slice(0, 19));
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await expect
      .poll(() => new URL(page.url()).searchParams.get('asOf'), eventually)
      .toBe(new Date(Math.floor(moment.getTime() / 1000) * 1000).toISOString());
    await visible(statusCard(page).getByText('Current status: Registered with the product'));
    await context.close();
  });

  it('prints the page without the navigation, the toolbar, the picker or the commands', async () => {
    const { company, page, context } = await companyPage(suite);
    const { id, moment } = await customerWithAPast(suite.portal, company);
    await open(page, suite.portal, `/customers/all/${id}?asOf=${moment.toISOString()}`);
    await visible(statusCard(page).getByText('Current status: Registered with the product'));
    await visible(page.getByRole('button', { name: 'Print' }));
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByTestId('sidebar').first().isVisible()).toBe(false);
    expect(await page.getByRole('banner').first().isVisible()).toBe(false);
    expect(await dateField(page, 'As of').isVisible()).toBe(false);
    expect(await command(page, 'Edit').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    await visible(statusCard(page));
    await visible(page.getByTestId('as-of-note'));
    await visible(history(page));
    await context.close();
  });

  it('says so when the address names no valid moment, and shows the customer now', async () => {
    const { company, page, context } = await companyPage(suite);
    const { id } = await customerWithAPast(suite.portal, company);
    await open(page, suite.portal, `/customers/all/${id}?asOf=yesterday-ish`);
    await visible(page.getByText('The address names no valid moment'));
    await visible(statusCard(page).getByText('Current status: KYC Failed'));
    await context.close();
  });
});
