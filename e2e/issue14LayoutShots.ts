import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { buildAdminUi, repoRoot } from './support/builtUi';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { type Company, operatorAccount, type Portal, startPortal } from './support/portal';
import { freshPage, open, seedStorage, tokenKey } from './support/screens';

/**
 * `npx tsx e2e/issue14LayoutShots.ts <before|after>`: the screens of issue 14 part A (layout,
 * text, selection) into docs/screenshots/issue-14/layout/<label>/, from the real app on a
 * throwaway database of the PostgreSQL at SHOTS_POSTGRES_URL (default the local test server).
 * Run it in a checkout of main for "before" and in this branch for "after".
 */
const label = process.argv[2] ?? 'after';
const outDir = join(repoRoot, 'docs/screenshots/issue-14/layout', label);
const adminUrl = process.env.SHOTS_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const boxedRight = {
  layout: { style: 'layout1', config: { mode: 'boxed', navbar: { position: 'right' } } },
  theme: { main: 'default' },
};

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
  await page.waitForTimeout(600);
  await page.screenshot({ path: join(outDir, `${name}.png`) });
  console.log(`wrote docs/screenshots/issue-14/layout/${label}/${name}.png`);
}

async function step(name: string, run: () => Promise<void>) {
  try {
    await run();
  } catch (error) {
    console.log(`skipped ${name}: ${(error as Error).message.split('\n')[0]}`);
  }
}

async function issuer(portal: Portal): Promise<Company> {
  const company = await portal.registerCompany({ companyName: 'Maple Robotics' });
  await portal.verify(company);
  const people = [
    ['Ines', 'Duarte', 'ines@investors.test'],
    ['', '', 'nameless@investors.test'],
    ['Omar', 'Haddad', 'omar.haddad-long-address@investors.example.test'],
    ['Zeynep', 'Kaya', 'zeynep@investors.test'],
  ];
  for (const [name, lastName, email] of people) {
    await portal.api('POST', '/customers', {
      token: company.token,
      body: { email, name, lastName, phone: '+1 555 0100', starred: false },
    });
  }
  return company;
}

/** A page signed in as `token`, in `locale`, optionally boxed with the navigation on the right. */
async function page(
  browser: Browser,
  portal: Portal,
  token: string,
  locale: string,
  path: string,
  viewport: { width: number; height: number },
  settings?: object,
) {
  const opened = await freshPage(browser, viewport);
  await seedStorage(opened.page, portal, {
    [tokenKey]: token,
    locale,
    ...(settings ? { settings: JSON.stringify(settings) } : {}),
  });
  await open(opened.page, portal, path);
  return opened;
}

async function main() {
  const missing = chromiumMissingReason();
  if (missing) throw new Error(`cannot take screenshots: ${missing}`);
  await mkdir(outDir, { recursive: true });
  buildAdminUi();
  const database = await throwawayDatabase();
  const portal = await startPortal(database);
  const browser = await launchChromium();
  const wide = { width: 1280, height: 800 };
  const phone = { width: 390, height: 844 };
  try {
    const company = await issuer(portal);
    const shots: [string, string, string, typeof wide, object?][] = [
      ['customers-ar-boxed-right-1280', 'ar', '/customers/all', wide, boxedRight],
      ['customers-tr-1280', 'tr', '/customers/all', wide],
      ['customers-en-390', 'en', '/customers/all', phone],
      [
        'customers-empty-search-en',
        'en',
        `/customers/all?filter=${encodeURIComponent('{"q":"nobody"}')}`,
        wide,
      ],
      ['profile-ar-390', 'ar', '/profile', phone],
    ];
    for (const [name, locale, path, viewport, settings] of shots) {
      await step(name, async () => {
        const shot = await page(browser, portal, company.token, locale, path, viewport, settings);
        await shoot(shot.page, name);
        await shot.context.close();
      });
    }
    await step('selection-ar', async () => {
      const shot = await page(browser, portal, company.token, 'ar', '/customers/all', wide);
      const boxes = shot.page.locator('.RaDatagrid-rowCell, .RaDatagrid-row input[type=checkbox]');
      await boxes.first().waitFor();
      const rows = shot.page.locator('tbody input[type=checkbox]');
      await rows.nth(0).check();
      await rows.nth(1).check();
      await shoot(shot.page, 'selection-ar-two-rows');
      await shot.context.close();
    });
    const operator = await portal.api<{ access_token: string }>('POST', '/auth', {
      body: operatorAccount,
    });
    for (const [name, locale, viewport] of [
      ['companies-tr-1280', 'tr', wide],
      ['companies-en-390', 'en', phone],
    ] as const) {
      await step(name, async () => {
        const shot = await page(
          browser,
          portal,
          operator.access_token,
          locale,
          '/companies',
          viewport,
        );
        await shoot(shot.page, name);
        await shot.context.close();
      });
    }
  } finally {
    await browser.close();
    await portal.stop();
  }
}

await main();
