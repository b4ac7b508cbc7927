import { expect, it } from 'vitest';
import type { Company, Portal } from './support/portal';
import { freshPage, open, seedStorage, tokenKey } from './support/screens';
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
  it("shows a change made in one browser in the company's other browser within a second, and nowhere else", async () => {
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
    expect(Date.now() - answered, 'seen in the other browser within 1 s').toBeLessThan(1_000);
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
});
