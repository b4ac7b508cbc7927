import { TokenStandingCache } from '@issuer/projections';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { jsonOf } from '../http/testing/responses';
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

/** Milliseconds until the other process refuses the token (at most 1 s). */
async function refusedWithin(token: string): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < 1_000) {
    if ((await profileOnOther(token)) === 401) return Date.now() - started;
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
});
