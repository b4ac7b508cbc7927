import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountsHarness,
  registered,
  type SessionAnswer,
  startAccountsHarness,
} from '../auth/testing/accountsHarness';
import { errorOf, jsonOf } from '../http/testing/responses';
import { createOperator, PLATFORM_COMPANY_ID } from './operator';

let h: AccountsHarness;
let operatorToken: string;
beforeAll(async () => {
  h = await startAccountsHarness();
  await createOperator(h.deps, { email: 'ops@platform.test', password: 'aurora-Lynx-2025' });
  const login = await h.call('POST', '/api/auth', {
    body: { email: 'ops@platform.test', password: 'aurora-Lynx-2025' },
  });
  expect(login.status).toBe(200);
  operatorToken = (await jsonOf<SessionAnswer>(login)).access_token;
});
afterAll(() => h.close());

interface CompanyRecord {
  id: string;
  name: string;
  symbol: string;
  verified: boolean;
  isIssuer: boolean;
}

async function companyIdOf(token: string): Promise<string> {
  const res = await h.call('GET', '/api/auth/access-token', { token });
  const { user } = await jsonOf<SessionAnswer>(res);
  const { rows } = await h.pool.query('SELECT company_id FROM users WHERE user_id = $1', [
    user.uid,
  ]);
  return rows[0].company_id;
}

describe('the platform operator', () => {
  it('signs in like anyone, with the operator role in the platform company', async () => {
    const res = await h.call('GET', '/api/auth/access-token', { token: operatorToken });
    const { user } = await jsonOf<SessionAnswer>(res);
    expect(user.role).toEqual(['operator']);
    expect(await companyIdOf(operatorToken)).toBe(PLATFORM_COMPANY_ID);
  });

  it('lists companies with the react-admin contract', async () => {
    for (const name of ['Zephyr Mines', 'Quartz Holdings', 'Quarry Partners']) {
      await registered(h, { companyName: name });
    }
    const res = await h.call(
      'GET',
      `/api/operator/companies?sort=${encodeURIComponent('["name","ASC"]')}&range=${encodeURIComponent('[0,1]')}&filter=${encodeURIComponent('{"q":"qua"}')}`,
      { token: operatorToken },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Range')).toBe('companies 0-1/2');
    const rows = await jsonOf<CompanyRecord[]>(res);
    expect(rows.map((row) => row.name)).toEqual(['Quarry Partners', 'Quartz Holdings']);
    expect(rows[0]).toEqual({
      id: expect.any(String),
      name: 'Quarry Partners',
      symbol: expect.any(String),
      verified: false,
      isIssuer: false,
      suspended: false,
      suspensionReason: null,
      terminalCount: 0,
      fiatBalanceCad: 0,
      registeredAt: expect.any(String),
      contactEmail: expect.stringMatching(/@acme\.test$/),
    });

    const all = await h.call('GET', '/api/operator/companies', { token: operatorToken });
    expect(all.headers.get('Content-Range')).toMatch(/^companies 0-2\/3$/);
  });

  it("tells two companies of one name apart by their admin's email, and finds one by it", async () => {
    const first = await registered(h, { companyName: 'Twin Ventures', email: 'cfo@twin-one.test' });
    await registered(h, { companyName: 'Twin Ventures', email: 'ceo@twin-two.test' });
    // A second admin of the first company, added later, does not change its contact.
    h.advanceClock(60_000);
    await h.call('POST', '/api/company/users', {
      token: first.access_token,
      body: { email: 'aaa@twin-one.test', password: 'glacier-Otter-77', role: 'admin' },
    });
    const list = async (filter: object) => {
      const res = await h.call(
        'GET',
        `/api/operator/companies?sort=${encodeURIComponent('["symbol","ASC"]')}&filter=${encodeURIComponent(JSON.stringify(filter))}`,
        { token: operatorToken },
      );
      expect(res.status).toBe(200);
      return (await jsonOf<(CompanyRecord & { contactEmail: string })[]>(res)).map(
        (row) => `${row.name} <${row.contactEmail}>`,
      );
    };
    expect((await list({ q: 'twin ventures' })).sort()).toEqual([
      'Twin Ventures <ceo@twin-two.test>',
      'Twin Ventures <cfo@twin-one.test>',
    ]);
    expect(await list({ q: 'TWIN-TWO' })).toEqual(['Twin Ventures <ceo@twin-two.test>']);
    expect(await list({ q: 'aaa@twin' })).toEqual([]);
  });

  it('refuses a malformed list query with a 400 in the one error shape', async () => {
    const res = await h.call('GET', '/api/operator/companies?sort=["password","ASC"]', {
      token: operatorToken,
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields).toHaveProperty('sort.0');
    const broken = await h.call('GET', '/api/operator/companies?range=[0,', {
      token: operatorToken,
    });
    expect(broken.status).toBe(400);
    const nul = await h.call(
      'GET',
      `/api/operator/companies?filter=${encodeURIComponent('{"q":"a\\u0000"}')}`,
      {
        token: operatorToken,
      },
    );
    expect((await errorOf(nul)).fields).toEqual({ 'filter.q': 'Use printable characters only' });
  });

  it('verifies a company and grants issuer status; the company sees both in its profile', async () => {
    const company = await registered(h);
    const id = await companyIdOf(company.access_token);

    // As a generic client sends a command without fields: a JSON content type and no body.
    const verify = await h.call('POST', `/api/operator/companies/${id}/verify`, {
      token: operatorToken,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(verify.status).toBe(200);
    expect(await verify.json()).toMatchObject({ id, verified: true, isIssuer: false });
    const grant = await h.call('POST', `/api/operator/companies/${id}/issuer`, {
      token: operatorToken,
      body: { isIssuer: true },
    });
    expect(grant.status).toBe(200);

    const profile = await jsonOf(
      await h.call('GET', '/api/profile/about', { token: company.access_token }),
    );
    expect(profile).toMatchObject({ verified: 1, isIssuer: true });
    const session = await jsonOf<SessionAnswer>(
      await h.call('GET', '/api/auth/access-token', { token: company.access_token }),
    );
    expect(session.user.isIssuer).toBe(true);
    expect(session.user.data.verified).toBe(1);

    const revoke = await h.call('POST', `/api/operator/companies/${id}/issuer`, {
      token: operatorToken,
      body: { isIssuer: false },
    });
    expect(await revoke.json()).toMatchObject({ verified: true, isIssuer: false });
    expect(
      await jsonOf(await h.call('GET', '/api/profile/about', { token: company.access_token })),
    ).toMatchObject({ verified: 1, isIssuer: false });

    const [event] = (await h.store.readStream(`Company-${id}`)).filter(
      (stored) => stored.type === 'CompanyVerified',
    );
    expect(event?.metadata.companyId).toBe(id);
  });

  it('gets 404 for a company that does not exist and 400 for a malformed id', async () => {
    const missing = await h.call('POST', `/api/operator/companies/${crypto.randomUUID()}/verify`, {
      token: operatorToken,
    });
    expect(missing.status).toBe(404);
    const malformed = await h.call('POST', '/api/operator/companies/not-a-uuid/verify', {
      token: operatorToken,
    });
    expect(malformed.status).toBe(400);
  });
});

describe('a company user', () => {
  it('gets 403 on every operator route, and 401 without a token', async () => {
    const company = await registered(h);
    const id = await companyIdOf(company.access_token);
    const token = company.access_token;
    const calls = [
      h.call('GET', '/api/operator/companies', { token }),
      h.call('GET', `/api/operator/companies/${id}`, { token }),
      h.call('POST', `/api/operator/companies/${id}/verify`, { token }),
      h.call('POST', `/api/operator/companies/${id}/issuer`, { token, body: { isIssuer: true } }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(403);
      expect((await errorOf(res)).code).toBe('forbidden');
    }
    expect((await h.call('GET', '/api/operator/companies')).status).toBe(401);
    expect(await jsonOf(await h.call('GET', '/api/profile/about', { token }))).toMatchObject({
      verified: 0,
      isIssuer: false,
    });
  });
});
