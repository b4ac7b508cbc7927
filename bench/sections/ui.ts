import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildAdminUi, repoRoot } from '../../e2e/support/builtUi';
import { chromiumMissingReason, launchChromium } from '../../e2e/support/chromium';
import { type Portal, startPortal } from '../../e2e/support/portal';
import { buildBareReactAdmin } from '../lib/bareReactAdmin';
import { startChildServer } from '../lib/child';
import { onCleanup } from '../lib/cleanup';
import { type FormFactor, runLighthouse } from '../lib/lighthouse';
import type { BenchOptions } from '../lib/options';
import { benchPostgres } from '../lib/postgres';
import { type Figure, figure, notMeasured } from '../lib/report';
import { type ScriptsLoaded, scriptsLoadedBy } from '../lib/scriptsLoaded';
import { percentile } from '../lib/stats';

const SECTION = 'ui';
const FIRST_SCREEN_TARGET_KB = 360;
const MOBILE_FCP_TARGET_MS = 800;
const DESKTOP_SCORE_TARGET = 0.95;
const BASELINE = 'bare react-admin';

/** One of the two builds measured side by side. */
interface Site {
  url: string;
  loginPath: string;
  /** Local storage of a signed-in user: with it, opening `/` shows the first screen. */
  signedInStorage(): Promise<{ name: string; value: string }[]>;
  /** The first screen's path (a hash route for the bare app). */
  firstScreen: RegExp;
  /** Resolves once the screen is usable: lazy chunks can arrive after a quiet network moment. */
  shown(page: Page, screen: 'login' | 'first'): Promise<void>;
}

/**
 * What the admin UI costs a browser: the gzip size of the JavaScript loaded for the login page
 * and for the first screen after sign-in (a verified company's stored session opening `/`), seen
 * through Playwright's network events on the build the real API serves; and Lighthouse's first
 * contentful paint (mobile profile) and performance score (desktop profile) of the login page.
 * Baseline: the smallest react-admin app with a login, a list and an edit page
 * (bench/fixtures/bare-react-admin), built by the same Vite, served the same way, in the same run.
 */
export async function benchUi(options: BenchOptions): Promise<Figure[]> {
  const missing = chromiumMissingReason();
  if (missing) return [notMeasured(SECTION, '(section)', missing)];
  // Always a fresh production build: the figures and pictures are of what this checkout ships.
  buildAdminUi({ force: true });
  const precompressed = readdirSync(join(repoRoot, 'admin-ui/dist/assets')).some((name) =>
    name.endsWith('.gz'),
  );
  const bareDist = await mkdtemp(join(tmpdir(), 'issuer-bench-bare-ra-'));
  const removeBareDist = onCleanup(`bare react-admin build ${bareDist}`, () =>
    rm(bareDist, { recursive: true, force: true }),
  );
  await buildBareReactAdmin(bareDist, { precompress: precompressed });

  const postgres = await benchPostgres();
  const portal = await startPortal({
    url: await postgres.createDatabase('bench_ui'),
    drop: async () => {},
  });
  const bare = await startChildServer('staticUi.ts', { UI_DIR: bareDist });
  const browser = await launchChromium();
  try {
    const app = adminUi(portal);
    const baseline: Site = {
      url: bare.url,
      loginPath: '/#/login',
      signedInStorage: async () => [{ name: 'bare_signed_in', value: '1' }],
      firstScreen: /#\/companies/,
      shown: (page, screen) =>
        (screen === 'login'
          ? page.getByLabel(/username/i)
          : page.getByText(/no compan(y|ies) yet|no results/i).first()
        ).waitFor({ timeout: 30_000 }),
    };
    const figures = [
      ...(await sizeFigure(browser, 'login page', app, baseline, 'login')),
      ...(await sizeFigure(browser, 'first screen after sign-in', app, baseline, 'first')),
    ];
    await browser.close();
    for (const formFactor of ['mobile', 'desktop'] as const)
      figures.push(await lighthouseFigure(formFactor, app, baseline, options.lighthouseRuns));
    return figures;
  } finally {
    await browser.close();
    await bare.stop();
    await portal.stop();
    await removeBareDist();
  }
}

function adminUi(portal: Portal): Site {
  return {
    url: portal.url,
    loginPath: '/login',
    async signedInStorage() {
      const company = await portal.registerCompany();
      await portal.verify(company);
      return [{ name: 'jwt_access_token', value: company.token }];
    },
    firstScreen: /\/customers\/all$/,
    shown: (page, screen) =>
      (screen === 'login' ? page.getByLabel('Email') : page.getByText('No customers yet')).waitFor({
        timeout: 30_000,
      }),
  };
}

/** JavaScript a fresh browser (empty cache) loads to show the login page or the first screen. */
async function scriptsFor(browser: Browser, site: Site, screen: 'login' | 'first') {
  const context = await browser.newContext(
    screen === 'first'
      ? {
          storageState: {
            cookies: [],
            origins: [{ origin: site.url, localStorage: await site.signedInStorage() }],
          },
        }
      : {},
  );
  const page = await context.newPage();
  try {
    return await scriptsLoadedBy(page, async () => {
      if (screen === 'login') {
        await page.goto(`${site.url}${site.loginPath}`);
      } else {
        await page.goto(`${site.url}/`);
        await page.waitForURL((url) => site.firstScreen.test(url.href), { timeout: 30_000 });
      }
      await site.shown(page, screen);
    });
  } finally {
    await context.close();
  }
}

const kb = (loaded: ScriptsLoaded) => loaded.gzipBytes / 1000;

async function sizeFigure(
  browser: Browser,
  name: string,
  app: Site,
  baseline: Site,
  screen: 'login' | 'first',
): Promise<Figure[]> {
  const [mine, bare] = [
    await scriptsFor(browser, app, screen),
    await scriptsFor(browser, baseline, screen),
  ];
  console.error(
    `  ${name}: ${kb(mine).toFixed(1)} KB gzip in ${mine.files} scripts; ${BASELINE} ${kb(bare).toFixed(1)} KB in ${bare.files}`,
  );
  return [
    figure(SECTION, `JS for the ${name} (gzip)`, kb(mine), 'KB', {
      baseline: { name: BASELINE, value: kb(bare) },
      note: `${mine.files} scripts (baseline ${bare.files})`,
      ...(screen === 'first'
        ? {
            target: {
              text: `≤ ${FIRST_SCREEN_TARGET_KB} KB`,
              met: kb(mine) <= FIRST_SCREEN_TARGET_KB,
            },
          }
        : {}),
    }),
  ];
}

/** Median of `runs` Lighthouse runs of each login page, the two builds taking turns. */
async function lighthouseFigure(
  formFactor: FormFactor,
  app: Site,
  baseline: Site,
  runs: number,
): Promise<Figure> {
  const mine: number[] = [];
  const bare: number[] = [];
  const pick = formFactor === 'mobile' ? 'firstContentfulPaintMs' : 'performanceScore';
  for (let run = 0; run < runs; run += 1) {
    mine.push((await runLighthouse(`${app.url}${app.loginPath}`, formFactor))[pick]);
    bare.push((await runLighthouse(`${baseline.url}${baseline.loginPath}`, formFactor))[pick]);
  }
  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    );
  console.error(
    `  Lighthouse ${formFactor} ${pick}: ${mine.join(', ')}; ${BASELINE} ${bare.join(', ')}`,
  );
  const note = `median of ${runs} Lighthouse runs of the login page`;
  if (formFactor === 'mobile')
    return figure(SECTION, 'login first contentful paint (mobile)', median(mine), 'ms', {
      baseline: { name: BASELINE, value: median(bare) },
      target: { text: `≤ ${MOBILE_FCP_TARGET_MS} ms`, met: median(mine) <= MOBILE_FCP_TARGET_MS },
      note,
    });
  return figure(SECTION, 'login performance score (desktop)', median(mine), 'score', {
    baseline: { name: BASELINE, value: median(bare) },
    target: { text: `≥ ${DESKTOP_SCORE_TARGET}`, met: median(mine) >= DESKTOP_SCORE_TARGET },
    note,
  });
}
