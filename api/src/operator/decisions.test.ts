import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountsHarness,
  registered,
  type SessionAnswer,
  startAccountsHarness,
} from '../auth/testing/accountsHarness';
import { errorOf, jsonOf } from '../http/testing/responses';
import { createOperator } from './operator';

let h: AccountsHarness;
let operatorToken: string;
const operator = { email: 'ops@platform.test', password: 'aurora-Lynx-2025' };
beforeAll(async () => {
  h = await startAccountsHarness();
  await createOperator(h.deps, operator);
  const login = await h.call('POST', '/api/auth', { body: operator });
  operatorToken = (await jsonOf<SessionAnswer>(login)).access_token;
});
afterAll(() => h.close());

const tenantOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).tid as string;

async function newCompany() {
  const company = await registered(h);
  return { ...company, id: tenantOf(company.access_token) };
}

const decide = (id: string, action: string, body: unknown = { reason: 'Chargebacks' }) =>
  h.call('POST', `/api/operator/companies/${id}/${action}`, { token: operatorToken, body });

interface HistoryAnswer {
  entries: { type: string; reason: string | null; actor: { email: string | null } }[];
}

describe("the operator's undoable decisions", () => {
  it('revokes a verification with a reason: the company is unverified again', async () => {
    const company = await newCompany();
    await h.call('POST', `/api/operator/companies/${company.id}/verify`, { token: operatorToken });
    const revoked = await decide(company.id, 'revoke-verification', {
      reason: 'Registration papers expired',
    });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toMatchObject({ id: company.id, verified: false });
    const profile = await h.call('GET', '/api/profile/about', { token: company.access_token });
    expect(await jsonOf(profile)).toMatchObject({ verified: 0 });
    // Nothing to revoke twice: a stale screen gets 409, and nothing is written.
    const again = await decide(company.id, 'revoke-verification');
    expect(again.status).toBe(409);
    const types = (await h.store.readStream(`Company-${company.id}`)).map((event) => event.type);
    expect(types.filter((type) => type === 'CompanyVerificationRevoked')).toHaveLength(1);
  });

  it('suspends a company: its users are refused with a clear error until it is reinstated', async () => {
    const company = await newCompany();
    const suspended = await decide(company.id, 'suspend', {
      reason: '  Chargebacks under review ',
    });
    expect(suspended.status).toBe(200);
    expect(await suspended.json()).toMatchObject({
      suspended: true,
      suspensionReason: 'Chargebacks under review',
    });

    const call = await h.call('GET', '/api/profile/about', { token: company.access_token });
    expect(call.status).toBe(403);
    expect(await errorOf(call)).toMatchObject({
      code: 'company_suspended',
      message: 'Your company is suspended by the platform operator: contact support',
    });
    const login = await h.call('POST', '/api/auth', {
      body: { email: company.form.email, password: company.form.password },
    });
    expect(login.status).toBe(403);
    expect((await errorOf(login)).code).toBe('company_suspended');
    expect((await decide(company.id, 'suspend')).status).toBe(409);

    const reinstated = await decide(company.id, 'reinstate', { reason: 'Review closed' });
    expect(await reinstated.json()).toMatchObject({ suspended: false, suspensionReason: null });
    const back = await h.call('GET', '/api/profile/about', { token: company.access_token });
    expect(back.status).toBe(200);
    expect((await decide(company.id, 'reinstate', { reason: 'Again' })).status).toBe(409);
  });

  it('lists the history of those decisions, oldest first, with who and why', async () => {
    const company = await newCompany();
    await h.call('POST', `/api/operator/companies/${company.id}/verify`, { token: operatorToken });
    await h.call('POST', `/api/operator/companies/${company.id}/issuer`, {
      token: operatorToken,
      body: { isIssuer: true },
    });
    await decide(company.id, 'suspend', { reason: 'Chargebacks under review' });
    await decide(company.id, 'reinstate', { reason: 'Review closed' });
    await h.call('PATCH', '/api/profile', {
      token: company.access_token,
      body: { companyName: 'Renamed Company' },
    });
    const res = await h.call('GET', `/api/operator/companies/${company.id}/history`, {
      token: operatorToken,
    });
    expect(res.status).toBe(200);
    const { entries } = await jsonOf<HistoryAnswer>(res);
    expect(entries.map(({ type, reason }) => [type, reason])).toEqual([
      ['CompanyRegistered', null],
      ['CompanyVerified', null],
      ['IssuerStatusGranted', null],
      ['CompanySuspended', 'Chargebacks under review'],
      ['CompanyReinstated', 'Review closed'],
    ]);
    expect(entries[3]?.actor.email).toBe(operator.email);
    expect(entries[0]?.actor.email).toBe(company.form.email);
  });

  it('wants a reason, answers 404 for an unknown company and 400 for a malformed id', async () => {
    const company = await newCompany();
    for (const body of [{}, { reason: '   ' }, { reason: 'x'.repeat(501) }, { reason: 7 }]) {
      const res = await decide(company.id, 'suspend', body);
      expect(res.status).toBe(400);
      expect(Object.keys((await errorOf(res)).fields ?? {})).toEqual(['reason']);
    }
    const unknown = await decide(company.id, 'suspend', { reason: 'ok', extra: true });
    expect(unknown.status).toBe(400);
    const missing = crypto.randomUUID();
    expect((await decide(missing, 'suspend')).status).toBe(404);
    expect((await decide(missing, 'revoke-verification')).status).toBe(404);
    const history = await h.call('GET', `/api/operator/companies/${missing}/history`, {
      token: operatorToken,
    });
    expect(history.status).toBe(404);
    expect((await decide('not-a-uuid', 'suspend')).status).toBe(400);
    const profile = await h.call('GET', '/api/profile/about', { token: company.access_token });
    expect(profile.status).toBe(200);
  });

  it("is the operator's alone: a company admin gets 403 on each of them", async () => {
    const company = await newCompany();
    const token = company.access_token;
    for (const action of ['suspend', 'reinstate', 'revoke-verification']) {
      const res = await h.call('POST', `/api/operator/companies/${company.id}/${action}`, {
        token,
        body: { reason: 'Mine' },
      });
      expect(res.status).toBe(403);
    }
    const history = await h.call('GET', `/api/operator/companies/${company.id}/history`, {
      token,
    });
    expect(history.status).toBe(403);
  });
});
