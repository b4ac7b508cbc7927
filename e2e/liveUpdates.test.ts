import { expect, it } from 'vitest';
import type { Company, Portal } from './support/portal';
import { freshPage, open, openDialog, seedStorage, tokenKey } from './support/screens';
import { describeInBrowser } from './support/suite';

async function signedIn(
  suite: { portal: Portal; browser: Parameters<typeof freshPage>[0] },
  company: Company,
) {
  const opened = await freshPage(suite.browser);
  await seedStorage(opened.page, suite.portal, { [tokenKey]: company.token, locale: 'en' });
  await open(opened.page, suite.portal, '/customers/all');
  // The list is up and the live stream has said it is ready.
  await opened.page.waitForFunction(() => document.documentElement.dataset.live === 'on');
  return opened;
}

describeInBrowser('live updates', (suite) => {
  it("shows a change made in one browser in the company's other browser within seconds (2 s bound), and nowhere else", async () => {
    const a = await suite.portal.registerCompany();
    const b = await suite.portal.registerCompany();
    await suite.portal.verify(a);
    await suite.portal.verify(b);
    const first = await signedIn(suite, a);
    const second = await signedIn(suite, a);
    const other = await signedIn(suite, b);
    const email = `live-${Date.now().toString(36)}@investors.test`;
    // The change, made in the first browser with its own session.
    const status = await first.page.evaluate(
      async (body) => {
        const token = localStorage.getItem('jwt_access_token') ?? '';
        const res = await fetch('/api/customers', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
          body: JSON.stringify(body),
        });
        return res.status;
      },
      { email, name: 'Livia', lastName: 'Streamwell' },
    );
    expect(status).toBe(201);
    const answered = Date.now();
    await second.page.getByText('Streamwell').first().waitFor({ state: 'visible', timeout: 5_000 });
    // The promise is a second (about 0.2 s on a quiet machine). The bound is 2 s because this test
    // runs beside the whole suite on two cores: at a load average near 7 it measured 1.1 and 1.4 s.
    expect(Date.now() - answered, 'seen in the other browser within 2 s').toBeLessThan(2_000);
    await other.page.waitForTimeout(1_000);
    // The other company heard of no change at all (whatever else its page may reload).
    expect(
      await other.page.evaluate(() => document.documentElement.dataset.liveChanges),
    ).toBeUndefined();
    expect(
      Number(await second.page.evaluate(() => document.documentElement.dataset.liveChanges)),
    ).toBeGreaterThan(0);
    expect(await other.page.getByText('Streamwell').count()).toBe(0);
    await Promise.all([first.context.close(), second.context.close(), other.context.close()]);
  }, 90_000);

  it('keeps an open customer picker still while a change arrives; typing again finds the new customer', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    const stamp = Date.now().toString(36);
    const add = (name: string) =>
      suite.portal.api('POST', '/customers', {
        token: company.token,
        body: { email: `${name.toLowerCase()}-${stamp}@investors.test`, name, lastName: stamp },
      });
    await add('Galena');
    const { page, context } = await signedIn(suite, company);
    await open(page, suite.portal, '/etransfers/all');
    await page.waitForFunction(() => document.documentElement.dataset.live === 'on');
    const sendMoney = page.getByRole('main').getByRole('button', { name: 'Send money' });
    const dialog = await openDialog(page, sendMoney, 'Send money');
    const picker = dialog.getByRole('combobox', { name: 'Customer' });
    // The choices shown are the search's own answer, not the list from before the search.
    const searched = page.waitForResponse((response) =>
      decodeURIComponent(response.url()).includes('"q":"Gal"'),
    );
    await picker.fill('Gal');
    await searched;
    const options = page.getByRole('option');
    await options.filter({ hasText: 'Galena' }).waitFor({ timeout: 10_000 });
    const heard = () =>
      page.evaluate(() => Number(document.documentElement.dataset.liveChanges ?? 0));
    // Changes from the set-up may still be on their way: the next one heard must be the new one.
    let before = await heard();
    for (let quiet = false; !quiet; ) {
      await page.waitForTimeout(500);
      const now = await heard();
      quiet = now === before;
      before = now;
    }

    // Another session adds a customer the open list would match.
    await add('Galileo');
    await expect.poll(heard, { timeout: 10_000 }).toBeGreaterThan(before);
    await page.waitForTimeout(1_000);
    expect(await options.allTextContents()).toEqual([`Galena ${stamp}`]);

    // Searching again fetches the choices afresh.
    await picker.fill('Gali');
    await options.filter({ hasText: 'Galileo' }).waitFor({ timeout: 10_000 });
    await context.close();
  }, 90_000);
});
