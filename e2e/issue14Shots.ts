import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { buildAdminUi, repoRoot } from './support/builtUi';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { operatorAccount, type Portal, startPortal } from './support/portal';
import { freshPage, open, seedStorage, signedInPage, tokenKey } from './support/screens';

/**
 * `npx tsx e2e/issue14Shots.ts <before|after>`: the screens of issue 14 part B (forms, stuck
 * screens, the as-of view) into docs/screenshots/issue-14/<label>/, from the real app on a
 * throwaway database of the PostgreSQL at SHOTS_POSTGRES_URL (default the local test server).
 * Run it in a checkout of main for "before" and in this branch for "after": a step the checkout
 * cannot do is reported and skipped.
 */
const label = process.argv[2] ?? 'after';
const outDir = join(repoRoot, 'docs/screenshots/issue-14', label);
const adminUrl = process.env.SHOTS_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function throwawayDatabase() {
  const name = `shots_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

async function shoot(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(outDir, `${name}.png`) });
  console.log(`wrote docs/screenshots/issue-14/${label}/${name}.png`);
}

async function step(name: string, run: () => Promise<void>) {
  try {
    await run();
  } catch (error) {
    console.log(`skipped ${name}: ${(error as Error).message.split('\n')[0]}`);
  }
}

async function operatorToken(portal: Portal) {
  const answer = await portal.api<{ access_token: string }>('POST', '/auth', {
    body: operatorAccount,
  });
  return answer.access_token;
}

async function forms(browser: Browser, portal: Portal) {
  const { page, context } = await freshPage(browser);
  await open(page, portal, '/register');
  await page.getByLabel(/company name/i).fill('Maple Robotics');
  await page.getByLabel(/company symbol/i).fill('m');
  await page.getByLabel(/^email/i).fill('cfo@maple.test');
  await page.getByLabel(/^password/i).fill('tund');
  await page.getByLabel(/confirm password/i).fill('tund');
  await page.getByLabel(/company symbol/i).focus();
  await shoot(page, 'register-rules');
  await open(page, portal, '/login');
  await page.getByLabel('Email', { exact: false }).first().fill('nobody@maple.test');
  await page.getByLabel('Password', { exact: false }).first().fill('not-the-password');
  await page.getByRole('button', { name: /^(sign in|log ?in)$/i }).click();
  await page.waitForTimeout(1500);
  await shoot(page, 'login-wrong-password');
  await context.close();
}

async function stuckScreens(browser: Browser, portal: Portal) {
  const company = await portal.registerCompany({ companyName: 'Maple Robotics' });
  const { page, context } = await signedInPage(browser, portal, company, '/customers/all');
  await page.waitForTimeout(2500);
  await shoot(page, 'unverified-typed-address');
  await context.close();

  await portal.api('POST', '/terminals', {
    token: company.token,
    body: { name: 'Front desk', deviceId: 'POS-001' },
  });
  await portal.api('POST', '/terminals', {
    token: company.token,
    body: { name: 'Back office', deviceId: 'POS-002' },
  });
  await portal.verify(company);
  const shell = await signedInPage(browser, portal, company, '/profile');
  await step('terminal picker', async () => {
    await shell.page.getByLabel(/active terminal/i).click();
    await shell.page.getByRole('option').first().waitFor();
    await shoot(shell.page, 'terminal-picker');
  });
  await shell.context.close();

  const operator = await freshPage(browser);
  await seedStorage(operator.page, portal, { [tokenKey]: await operatorToken(portal) });
  await portal.registerCompany({ companyName: 'Birch Analytics' });
  await open(operator.page, portal, '/companies');
  await operator.page.getByRole('columnheader', { name: 'Contact email' }).waitFor();
  await operator.page
    .getByText('Logged in with JWT')
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => {});
  await shoot(operator.page, 'companies');
  await step('verify confirmation', async () => {
    await operator.page
      .getByRole('button', { name: /^Verify Birch/ })
      .first()
      .click();
    await operator.page.getByRole('dialog').waitFor({ timeout: 3000 });
    await shoot(operator.page, 'companies-verify-confirm');
    await operator.page.keyboard.press('Escape');
  });
  await step('company history', async () => {
    await operator.page
      .getByRole('button', { name: /^More actions for Maple/ })
      .first()
      .click();
    await operator.page.getByRole('menuitem', { name: 'Suspend' }).click();
    await operator.page.getByLabel(/^Reason/).fill('Chargebacks under review');
    await shoot(operator.page, 'companies-suspend-confirm');
    await operator.page.getByRole('button', { name: 'Confirm' }).click();
    await operator.page.getByRole('dialog').waitFor({ state: 'detached' });
    await operator.page
      .getByRole('button', { name: /^More actions for Maple/ })
      .first()
      .click();
    await operator.page.getByRole('menuitem', { name: 'History' }).click();
    await operator.page.getByRole('dialog').waitFor({ timeout: 3000 });
    await shoot(operator.page, 'companies-history');
  });
  await operator.context.close();
  await step('suspended sign-in', async () => {
    const { page, context } = await freshPage(browser);
    await open(page, portal, '/login');
    await page.getByLabel('Email', { exact: false }).first().fill(company.email);
    await page.getByLabel('Password', { exact: false }).first().fill(company.password);
    await page.getByRole('button', { name: /^(sign in|log ?in)$/i }).click();
    await page
      .getByText(/suspended/)
      .first()
      .waitFor({ timeout: 5000 });
    await shoot(page, 'suspended-sign-in');
    await context.close();
  });
}

async function asOf(browser: Browser, portal: Portal) {
  const company = await portal.registerCompany({ companyName: 'Cedar Capital' });
  await portal.verify(company);
  const customer = await portal.api<{ id: string }>('POST', '/customers', {
    token: company.token,
    body: { email: 'ines@investors.test', name: 'Ines', lastName: 'Duarte', starred: false },
  });
  const move = (status: string, reason?: string) =>
    portal.api('POST', `/customers/${customer.id}/investor-status`, {
      token: company.token,
      body: { status, ...(reason ? { reason } : {}) },
    });
  await move('Registered with the product');
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const moment = new Date();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await move('KYC Failed', 'The passport had expired');
  await portal.api('POST', `/customers/${customer.id}/lead-status`, {
    token: company.token,
    body: { leadStatus: 'Hot' },
  });
  await portal.api('POST', `/customers/${customer.id}/toggle-star`, { token: company.token });
  const path = `/customers/all/${customer.id}`;
  const { page, context } = await signedInPage(browser, portal, company, path, {
    width: 1280,
    height: 1100,
  });
  await page.getByTestId('investor-status').waitFor();
  const local = new Date(moment.getTime() - moment.getTimezoneOffset() * 60_000)
    .toISOString()
    .slice(0, 19);
  await page.getByLabel('As of').fill(local);
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await page.waitForTimeout(1500);
  await shoot(page, 'customer-as-of');
  await page.emulateMedia({ media: 'print' });
  await shoot(page, 'customer-as-of-print');
  await context.close();
}

async function main() {
  const missing = chromiumMissingReason();
  if (missing) throw new Error(`cannot take screenshots: ${missing}`);
  await mkdir(outDir, { recursive: true });
  buildAdminUi();
  const database = await throwawayDatabase();
  const portal = await startPortal(database);
  const browser = await launchChromium();
  try {
    await step('forms', () => forms(browser, portal));
    await step('stuck screens', () => stuckScreens(browser, portal));
    await step('as-of', () => asOf(browser, portal));
  } finally {
    await browser.close();
    await portal.stop();
  }
}

await main();
