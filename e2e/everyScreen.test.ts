import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import type { Company, Portal } from './support/portal';
import { operatorAccount } from './support/portal';
import { guestScreens, issuerScreens } from './support/portalScreens';
import {
  freshPage,
  innerSidewaysScroll,
  navigateInApp,
  open,
  seedStorage,
  sidewaysOverflow,
  tokenKey,
} from './support/screens';
import { describeInBrowser } from './support/suite';

const languages = ['en', 'tr', 'ar'] as const;
const layouts = {
  default: { mode: 'fullwidth', position: 'left' },
  'boxed+right': { mode: 'boxed', position: 'right' },
} as const;
const widths = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

interface Finding {
  where: string;
  what: string;
}

/** A settled screen: no progress indicator, the app's loading over. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.waitForTimeout(250);
  await page
    .locator('[role=progressbar]')
    .first()
    .waitFor({ state: 'detached', timeout: 5_000 })
    .catch(() => {});
}

/** Moves the app to `path` without reloading it, and waits for the screen to settle. */
async function go(page: Page, path: string): Promise<void> {
  await navigateInApp(page, path);
  await settled(page);
}

const rawPlaceholders = (page: Page) =>
  page.evaluate(() =>
    // biome-ignore lint/performance/useDomNodeTextContent: the visible text is what is checked
    document.body.innerText
      .split('\n')
      .filter((line) => line.includes('%{'))
      .slice(0, 3),
  );

/**
 * Whether the reader can see which screen this is: the app bar's title, or the screen's own
 * heading where the bar has no room for it (a phone).
 */
const namesItself = (page: Page) =>
  page.evaluate(() => {
    const shown = (element: Element) => {
      const box = element.getBoundingClientRect();
      return (
        box.width > 0 &&
        box.height > 0 &&
        getComputedStyle(element).visibility !== 'hidden' &&
        (element.textContent ?? '').trim() !== ''
      );
    };
    const appBarTitle = document.getElementById('react-admin-title');
    return (
      (appBarTitle !== null && shown(appBarTitle)) ||
      [...document.querySelectorAll('main h1')].some(shown)
    );
  });

/** Names MUI and react-admin give controls in English whatever the language, if not told. */
const englishDefaults = [
  'Go to next page',
  'Go to previous page',
  'Go to first page',
  'Go to last page',
  'pagination navigation',
  'Open',
  'Close',
  'Clear',
];

/** Controls a screen reader would name in English in a Turkish or Arabic page. */
const englishNames = (page: Page) =>
  page.evaluate(
    (english) =>
      [...document.querySelectorAll('[aria-label], [title]')]
        .flatMap((element) => [element.getAttribute('aria-label'), element.getAttribute('title')])
        .filter((name): name is string => name !== null && english.includes(name)),
    englishDefaults,
  );

/** Checks the screen at `path` and adds what is wrong to `findings`. */
async function check(
  page: Page,
  where: string,
  withAxe: boolean,
  signedIn: boolean,
  findings: Finding[],
  language: (typeof languages)[number],
) {
  // A record's name (a customer's page) titles the screen once the record has loaded.
  const untitled = async () => {
    for (let waited = 0; waited < 3_000; waited += 250) {
      if (await namesItself(page)) return false;
      await page.waitForTimeout(250);
    }
    return true;
  };
  if (signedIn && (await untitled()))
    findings.push({ where, what: 'untitled: neither the app bar nor a heading names the screen' });
  let wide = await sidewaysOverflow(page);
  // As for axe below: a layout caught half way (the app bar re-laid for a phone) is not an
  // overflow; what is still too wide a moment later is.
  if (wide.length > 0) {
    await page.waitForTimeout(700);
    wide = await sidewaysOverflow(page);
  }
  for (const what of wide) findings.push({ where, what: `wide: ${what}` });
  if (page.viewportSize()?.width === widths[0]?.width) {
    let scrolling = await innerSidewaysScroll(page);
    // As above: a table laid out before its rows arrived is not too wide; one still so is.
    if (scrolling.length > 0) {
      await page.waitForTimeout(700);
      scrolling = await innerSidewaysScroll(page);
    }
    for (const what of scrolling) findings.push({ where, what: `inner scroll: ${what}` });
  }
  for (const what of await rawPlaceholders(page)) findings.push({ where, what: `raw: ${what}` });
  if (language !== 'en')
    for (const what of new Set(await englishNames(page)))
      findings.push({ where, what: `named in English: ${what}` });
  if (!withAxe) return;
  let violations = await axeViolations(page);
  // A transition caught half way (a fade, a refetch after a live update) is not a contrast
  // failure: what stays wrong a moment later is.
  if (violations.length > 0) {
    await page.waitForTimeout(700);
    violations = await axeViolations(page);
  }
  for (const what of violations) findings.push({ where, what });
}

async function saveSettings(portal: Portal, token: string, layout: keyof typeof layouts) {
  const { mode, position } = layouts[layout];
  const settings = {
    layout: { style: 'layout1', config: { mode, navbar: { position, folded: false } } },
    theme: { main: 'default' },
  };
  await portal.api('POST', '/auth/user/update', {
    token,
    body: { user: { data: { settings, shortcuts: [] } } },
  });
  return settings;
}

/**
 * Opens `screens` in each language and layout at both widths: one page for the whole walk, the
 * app reloaded once per language and layout, screens reached by the router (no reload).
 */
async function walk(
  page: Page,
  portal: Portal,
  token: string | undefined,
  screens: string[],
  findings: Finding[],
) {
  for (const language of languages) {
    for (const layout of Object.keys(layouts) as (keyof typeof layouts)[]) {
      const settings = token ? await saveSettings(portal, token, layout) : undefined;
      await seedStorage(page, portal, {
        locale: language,
        ...(token ? { [tokenKey]: token } : {}),
        ...(settings ? { settings: JSON.stringify(settings) } : {}),
      });
      await page.setViewportSize(widths[0]);
      await open(page, portal, screens[0]);
      await settled(page);
      for (const screen of screens) {
        if (token) await go(page, screen);
        else {
          await open(page, portal, screen);
          await settled(page);
        }
        for (const size of widths) {
          await page.setViewportSize(size);
          await page.waitForTimeout(50);
          // Accessibility does not depend on the layout setting: checked once per language and width.
          const withAxe = layout === 'default';
          await check(
            page,
            `${screen} ${language} ${layout} ${size.width}`,
            withAxe,
            token !== undefined,
            findings,
            language,
          );
        }
        await page.setViewportSize(widths[0]);
      }
    }
  }
}

async function issuerWithData(portal: Portal): Promise<{ company: Company; customerId: string }> {
  const company = await portal.registerCompany({ companyName: 'Maple Robotics Incorporated' });
  await portal.verify(company);
  await portal.makeIssuer(company);
  const customer = await portal.api<{ id: string }>('POST', '/customers', {
    token: company.token,
    body: {
      email: 'ines.duarte-longname@investors.example.test',
      name: 'Ines',
      lastName: 'Duarte',
      starred: true,
    },
  });
  await portal.api('POST', `/customers/${customer.id}/lead-status`, {
    token: company.token,
    body: { leadStatus: 'Hot' },
  });
  await portal.api('POST', '/customers', {
    token: company.token,
    body: { email: 'nameless@investors.test', starred: false },
  });
  // Long names and texts, as real ones are: the tables must still fit a 1280 px window.
  const longNamed = await portal.api<{ id: string }>('POST', '/customers', {
    token: company.token,
    body: {
      email: 'maximiliana.konstantinopoulou@northern-lights-investments.example',
      name: 'Maximiliana',
      lastName: 'Konstantinopoulou-Westerberg',
    },
  });
  const terminal = await portal.api<{ id: string }>('POST', '/terminals', {
    token: company.token,
    body: { name: 'Front desk terminal by the main entrance', deviceId: 'till-1' },
  });
  await portal.api('POST', '/payments', {
    token: company.token,
    body: {
      terminalId: terminal.id,
      amountCents: 123_456,
      currency: 'CAD',
      description: 'Annual maintenance contract for the robotic arm assembly line',
      customerId: longNamed.id,
    },
  });
  await portal.api('POST', '/etransfers/requests', {
    token: company.token,
    body: {
      customerId: longNamed.id,
      amountCents: 250_000,
      reference: 'INV-2026-11-BRIDGE-000123',
    },
  });
  // The longest card brand the terminal reports: "Mastercard •••• 4444" must fit the table too.
  await portal.api('POST', `/terminals/${terminal.id}/simulator/present-card`, {
    token: company.token,
    body: { card: '5555555555554444' },
  });
  await portal.api('POST', '/payments', {
    token: company.token,
    body: { terminalId: terminal.id, amountCents: 990, currency: 'CAD', description: 'Pending' },
  });
  return { company, customerId: customer.id };
}

const report = (findings: Finding[]) =>
  findings.map((finding) => `${finding.where}: ${finding.what}`).join('\n');

describeInBrowser('every screen fits, resolves its text and passes axe-core', (suite) => {
  it('the issuer shell, in three languages, two layouts and two widths', async () => {
    const { company, customerId } = await issuerWithData(suite.portal);
    const { context, page } = await freshPage(suite.browser);
    const findings: Finding[] = [];
    await walk(page, suite.portal, company.token, issuerScreens(customerId), findings);
    await context.close();
    expect(report(findings)).toBe('');
    // About 2 minutes on a quiet 2-core machine; three times that when the machine is busy.
  }, 360_000);

  it("the operator's companies and the guest pages", async () => {
    const { access_token: token } = await suite.portal.api<{ access_token: string }>(
      'POST',
      '/auth',
      { body: operatorAccount },
    );
    await suite.portal.registerCompany({ companyName: 'Birch Analytics' });
    const { context, page } = await freshPage(suite.browser);
    const findings: Finding[] = [];
    await walk(page, suite.portal, token, ['/companies'], findings);
    await context.close();
    const guest = await freshPage(suite.browser);
    await walk(guest.page, suite.portal, undefined, guestScreens, findings);
    await guest.context.close();
    expect(report(findings)).toBe('');
  }, 180_000);
});
