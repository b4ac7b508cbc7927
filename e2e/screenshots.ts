import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { cleanupAll, installSignalHandlers } from '../bench/lib/cleanup';
import { benchPostgres } from '../bench/lib/postgres';
import { buildAdminUi, repoRoot } from './support/builtUi';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { startPortal } from './support/portal';
import {
  arabic,
  chooseLanguage,
  freshPage,
  open,
  signedInPage,
  visible,
  waitForPath,
} from './support/screens';

const outDir = join(repoRoot, 'docs/screenshots');
const shellViewport = { width: 1280, height: 1000 };

/** Toasts hide after 6 s; the pictures show the screen, not the welcome message. */
async function toastsGone(page: Page): Promise<void> {
  await page
    .getByRole('alert')
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => {});
}

/**
 * `npm run screenshots`: the login page, the shell in English and the shell in Arabic, taken from
 * the real app (the built UI served by the real server on a throwaway embedded PostgreSQL) into
 * docs/screenshots/.
 */
async function main(): Promise<void> {
  const missing = chromiumMissingReason();
  if (missing) throw new Error(`cannot take screenshots: ${missing}`);
  installSignalHandlers();
  // Always a fresh production build: the figures and pictures are of what this checkout ships.
  buildAdminUi({ force: true });
  const postgres = await benchPostgres();
  const portal = await startPortal({
    url: await postgres.createDatabase('screenshots'),
    drop: async () => {},
  });
  const browser = await launchChromium();
  try {
    await mkdir(outDir, { recursive: true });
    const guest = await freshPage(browser);
    await open(guest.page, portal, '/login');
    await visible(guest.page.getByRole('heading', { name: /welcome/i }).first());
    await shoot(guest.page, 'login.png');

    const company = await portal.registerCompany({ companyName: 'Maple Robotics' });
    await portal.verify(company);
    await portal.makeIssuer(company);
    // Tall enough for every navigation group of a verified issuer.
    const { page } = await signedInPage(browser, portal, company, '/', shellViewport);
    await waitForPath(page, '/customers/all');
    await visible(page.getByText('No customers yet'));
    await toastsGone(page);
    await shoot(page, 'shell-en.png');
    await chooseLanguage(page, arabic);
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await toastsGone(page);
    await shoot(page, 'shell-ar.png');
  } finally {
    await browser.close();
    await portal.stop();
  }
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: join(outDir, name) });
  console.log(`wrote docs/screenshots/${name}`);
}

main().then(
  async () => {
    await cleanupAll();
    process.exit(0);
  },
  async (error) => {
    console.error(error);
    await cleanupAll();
    process.exit(1);
  },
);
