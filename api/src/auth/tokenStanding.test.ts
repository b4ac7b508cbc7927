import { TokenStandingCache } from '@issuer/projections';
import { decodeJwt } from 'jose';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { jsonOf } from '../http/testing/responses';
import { createOperator } from '../operator/operator';
import {
  type AccountsHarness,
  registered,
  type SessionAnswer,
  startAccountsHarness,
} from './testing/accountsHarness';

// Two API processes on one database: the harness's, and a second app with its own standing cache
// listening on its own connection pool, as another `npm start` would.
let h: AccountsHarness;
let otherPool: pg.Pool;
let otherCache: TokenStandingCache;
let other: ReturnType<typeof createApp>;
let standingLookups = 0;
const operator = { email: 'ops@platform.test', password: 'aurora-Lynx-2025' };
beforeAll(async () => {
  h = await startAccountsHarness();
  otherPool = new pg.Pool({ connectionString: String(h.pool.options.connectionString), max: 4 });
  otherCache = await TokenStandingCache.start({
    pool: otherPool,
    logger: pino({ level: 'silent' }),
  });
  otherPool.on('acquire', () => {
    standingLookups += 1;
  });
  other = createApp({ ...h.deps, tokenStanding: otherCache });
});
afterAll(async () => {
  await otherCache.close();
  await otherPool.end();
  await h.close();
});

const profileOnOther = async (token: string) =>
  (await other.request('/api/profile/about', { headers: { Authorization: `Bearer ${token}` } }))
    .status;

/** Milliseconds until the other process refuses the token with `status` (at most 1 s). */
async function refusedWithin(token: string, status = 401): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < 1_000) {
    if ((await profileOnOther(token)) === status) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Number.POSITIVE_INFINITY;
}

describe('a token’s standing, remembered by every API process', () => {
  it('is asked of the database once per token, then answered from memory', async () => {
    const { access_token: token } = await registered(h);
    expect(await profileOnOther(token)).toBe(200);
    const before = standingLookups;
    for (let i = 0; i < 5; i += 1) expect(await profileOnOther(token)).toBe(200);
    expect(standingLookups).toBe(before);
  });

  it('refuses a signed-out token on another process within one second', async () => {
    const { access_token: token } = await registered(h);
    expect(await profileOnOther(token)).toBe(200);
    expect((await h.call('POST', '/api/auth/logout', { token })).status).toBe(204);
    expect(await refusedWithin(token)).toBeLessThan(1_000);
    // The process that signed it out refuses it from the very next request.
    expect((await h.call('GET', '/api/profile/about', { token })).status).toBe(401);
  });

  it('refuses a token older than a password change on another process within one second', async () => {
    const { access_token: token, form } = await registered(h);
    expect(await profileOnOther(token)).toBe(200);
    const changed = await h.call('POST', '/api/auth/password', {
      token,
      body: { currentPassword: form.password, newPassword: 'granite-Heron-93' },
    });
    expect(changed.status).toBe(200);
    expect(await refusedWithin(token)).toBeLessThan(1_000);
    const { access_token: kept } = await jsonOf<SessionAnswer>(changed);
    expect(await profileOnOther(kept)).toBe(200);
  });

  it("refuses a suspended company's tokens on another process within one second, and admits them again", async () => {
    await createOperator(h.deps, operator);
    const { access_token: operatorToken } = await jsonOf<SessionAnswer>(
      await h.call('POST', '/api/auth', { body: operator }),
    );
    const { access_token: token } = await registered(h);
    const companyId = String(decodeJwt(token).tid);
    expect(await profileOnOther(token)).toBe(200);
    const decide = (action: string) =>
      h.call('POST', `/api/operator/companies/${companyId}/${action}`, {
        token: operatorToken,
        body: { reason: 'Chargebacks under review' },
      });
    expect((await decide('suspend')).status).toBe(200);
    expect(await refusedWithin(token, 403)).toBeLessThan(1_000);
    // The process that suspended it refuses it from the very next request.
    expect((await h.call('GET', '/api/profile/about', { token })).status).toBe(403);
    expect((await decide('reinstate')).status).toBe(200);
    expect(await refusedWithin(token, 200)).toBeLessThan(1_000);
  });
});
