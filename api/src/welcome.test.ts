import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsHarness, startAccountsHarness } from './auth/testing/accountsHarness';

let h: AccountsHarness;
beforeAll(async () => {
  h = await startAccountsHarness();
});
afterAll(() => h.close());

describe('a newcomer opening the server root', () => {
  it('is told the API runs and where its entry points are, not a 404', async () => {
    const res = await h.call('GET', '/');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { links: Record<string, string> };
    expect(body.links.health).toBe('/api/health');
    expect((await h.call('GET', body.links.health ?? '')).status).toBe(200);
  });

  it('still gets 405 for another method there, and 404 elsewhere', async () => {
    expect((await h.call('POST', '/')).status).toBe(405);
    expect((await h.call('GET', '/nowhere')).status).toBe(404);
  });
});
