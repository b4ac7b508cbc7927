import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { Company, Portal } from './portal';

/** How long a step may take before the test fails (the app, the API and the read models together). */
const stepTimeoutMs = 15_000;

export const tokenKey = 'jwt_access_token';

/** A fresh browser context (no storage: a new browser) with one page. */
export async function freshPage(
  browser: Browser,
  viewport = { width: 1280, height: 800 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  context.setDefaultTimeout(stepTimeoutMs);
  return { context, page: await context.newPage() };
}

export async function open(page: Page, portal: Portal, path: string): Promise<void> {
  await page.goto(`${portal.url}${path}`);
}

/** Moves the single-page app to `path` without reloading it (react-router follows popstate). */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((next) => {
    window.history.pushState({}, '', next);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** Waits until the page's path is `path` (a string is an exact pathname, a RegExp is matched). */
export async function waitForPath(page: Page, path: string | RegExp): Promise<void> {
  await page.waitForURL((url) =>
    typeof path === 'string' ? url.pathname === path : path.test(url.pathname),
  );
}

export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

export const visible = (locator: Locator) => locator.waitFor({ state: 'visible' });

/** The message shown under a form field: the text of the elements its aria-describedby names. */
export function fieldMessage(field: Locator): Promise<string> {
  return field.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
      .join(' ')
      .trim(),
  );
}

export const loginForm = (page: Page) => ({
  email: page.getByLabel('Email', { exact: false }).first(),
  password: page.getByLabel('Password', { exact: false }).first(),
  submit: page.getByRole('button', { name: /^(sign in|log ?in)$/i }),
});

export const registerForm = (page: Page) => ({
  companyName: page.getByLabel(/company name/i),
  companySymbol: page.getByLabel(/company symbol/i),
  email: page.getByLabel(/^email/i),
  password: page.getByLabel(/^password/i),
  confirmPassword: page.getByLabel(/confirm password/i),
  submit: page.getByRole('button', { name: /^(register|create account|sign up)$/i }),
});

/** Signs in through the login form (the page must be at /login). */
export async function submitLogin(page: Page, company: Pick<Company, 'email' | 'password'>) {
  const form = loginForm(page);
  await form.email.fill(company.email);
  await form.password.fill(company.password);
  await form.submit.click();
}

/**
 * A new browser context already signed in as `company`: the token goes into local storage as the
 * app keeps it, and opening `path` logs in with it (the app's own start-up path).
 */
export async function signedInPage(
  browser: Browser,
  portal: Portal,
  company: Company,
  path = '/',
  viewport?: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await freshPage(browser, viewport);
  await seedStorage(opened.page, portal, { [tokenKey]: company.token });
  await open(opened.page, portal, path);
  return opened;
}

/**
 * Writes local storage for the portal's origin from a page that runs none of the app (its logo),
 * so the next page the test opens is the first to read it. Seeding it from a page of the app
 * raced that page's own start-up: a late start could read the entries and act on them (end an
 * expired session, save its own language) before the test's next page opened.
 */
export async function seedStorage(
  page: Page,
  portal: Portal,
  entries: Record<string, string>,
): Promise<void> {
  await open(page, portal, '/logo.svg');
  await page.evaluate((seeded) => {
    for (const [key, value] of Object.entries(seeded)) localStorage.setItem(key, value);
  }, entries);
}

export function storedToken(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), tokenKey);
}

/** The sidebar's link to a page, by its exact name (group headings are not links). */
export const navItem = (page: Page, name: string) =>
  page.getByRole('navigation').getByRole('link', { name, exact: true });

/** Group and item labels of the seed's navigation (section 1), in English. */
export const verifiedOnlyItems = [
  'Customers',
  'Transactions',
  'Pending Payments',
  'Subscriptions',
] as const;

/** Picks a language in the toolbar's language menu (`name` as the menu shows it). */
export async function chooseLanguage(page: Page, name: RegExp): Promise<void> {
  await page.getByRole('button', { name: /language/i }).click();
  await page.getByRole('menuitem', { name }).click();
}

export const arabic = /العربية|arabic/i;

/**
 * Boxes that scroll sideways inside the page (a table too wide for its card): on a desktop
 * window, what they hide (a row's actions, its last columns) is easy to miss.
 */
export const innerSidewaysScroll = (page: Page) =>
  page.evaluate(() =>
    [...document.body.querySelectorAll('*')]
      .filter((element) => {
        const { overflowX } = getComputedStyle(element);
        return (
          (overflowX === 'auto' || overflowX === 'scroll') &&
          element.scrollWidth > element.clientWidth + 1
        );
      })
      .map(
        (element) =>
          `${element.className.toString().split(' ')[0] || element.tagName} scrolls ${element.scrollWidth - element.clientWidth} px`,
      ),
  );

/**
 * The layout fits the window: nothing scrolls sideways, at 390 px included. Answers the elements
 * that stick out (none when it fits), so a failure says which.
 */
export const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => {
    const root = document.documentElement;
    if (root.scrollWidth <= root.clientWidth) return [];
    return [...document.body.querySelectorAll('*')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.right > root.clientWidth + 1 || box.left < -1;
      })
      .slice(0, 5)
      .map(
        (element) => `${element.tagName}.${element.className} ${element.textContent?.slice(0, 40)}`,
      );
  });

/**
 * Whether the element shows within the window's width: a layout pushed sideways (an RTL page
 * whose content overflows to the left) leaves it in the page but out of sight.
 */
export const insideWindow = (locator: Locator) =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    return box.width > 0 && box.left >= -1 && box.right <= width + 1;
  });

/** The direction the element's text is laid out in ('ltr' or 'rtl'), as the browser resolved it. */
export const readingDirection = (locator: Locator) =>
  locator.evaluate((element) => getComputedStyle(element).direction);

/**
 * Types into an autocomplete and picks the option named `name`. The list is drawn again when the
 * filtered choices arrive (live updates leave an open picker alone): an option clicked just then
 * is gone and the popup may close, as a person would see it flicker. Types and picks again, as a
 * person would, until the input shows the choice.
 */
export async function pickOption(
  page: Page,
  combobox: Locator,
  typed: string,
  name: string | RegExp,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await combobox.fill(typed, { timeout: 5_000 });
      await page.getByRole('option', { name }).click({ timeout: 4_000 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

/** The message under a form field: the text its input is described by (null when none). */
export async function messageUnder(field: Locator): Promise<string | null> {
  const id = await field.getAttribute('aria-describedby');
  return id ? field.page().locator(`[id="${id}"]`).textContent() : null;
}

/** The open dialog whose heading is `title`. */
export const dialogTitled = (page: Page, title: string) =>
  page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: title }) });

/**
 * Clicks `button` and answers the dialog titled `title` once it shows. A click that lands while
 * the page is still settling (a list or the sidebar drawn again by a live update) can miss, and a
 * person would click again: so does this, up to three times.
 */
export async function openDialog(page: Page, button: Locator, title: string): Promise<Locator> {
  const dialog = page
    .getByRole('dialog')
    .filter({ has: page.getByRole('heading', { name: title }) });
  for (let attempt = 1; ; attempt++) {
    await button.click();
    try {
      await dialog.waitFor({ state: 'visible', timeout: 5_000 });
      return dialog;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** A portal date field (`DatePickerField`): a group of sections named by its label. */
export const dateField = (scope: Page | Locator, label: string) =>
  scope.getByRole('group', { name: label, exact: true });

/**
 * Types a day (`2026-01-15`) or a moment (`2026-01-15T14:05:09`) into a portal date field as a
 * reader does, section by section, whatever order the field's language shows them in (day first in
 * Turkish, month first in English, the time first in the markup of an Arabic one, a 12-hour clock
 * and AM/PM in English). A section is told by its largest value: 9999 the year, 28 to 31 the day,
 * 23 the hour, 59 the minutes then the seconds, 1 the meridiem, and 12 the month (the first one)
 * or a 12-hour clock's hour (the second).
 */
export async function typeDate(field: Locator, value: string): Promise<void> {
  const [day = '', time = ''] = value.split('T');
  const [year = '', month = '', date = ''] = day.split('-');
  const [hours = '00', minutes = '00', seconds = '00'] = time.split(':');
  const hour = Number(hours);
  const sections = field.getByRole('spinbutton');
  await sections.first().waitFor({ state: 'visible' });
  const count = await sections.count();
  let twelves = 0;
  let fiftyNines = 0;
  for (let index = 0; index < count; index++) {
    const section = sections.nth(index);
    const max = Number(await section.getAttribute('aria-valuemax'));
    let text: string;
    if (max === 9999) text = year;
    else if (max >= 28 && max <= 31) text = date;
    else if (max === 23) text = hours;
    else if (max === 59) text = [minutes, seconds][fiftyNines++] ?? '';
    else if (max === 1) text = hour < 12 ? 'A' : 'P';
    else if (max === 12 && twelves++ === 0) text = month;
    else if (max === 12) text = String(hour % 12 || 12).padStart(2, '0');
    else throw new Error(`a date section with values up to ${max}: which part is it?`);
    await section.click();
    // At a person's pace: the field reports each digit (a year typed passes through 0002).
    await section.page().keyboard.type(text, { delay: 40 });
  }
}
