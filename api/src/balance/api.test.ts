import { randomUUID } from 'node:crypto';
import { ledgerConsistency } from '@issuer/projections';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionAnswer } from '../auth/testing/accountsHarness';
import { signAccessToken } from '../auth/tokens';
import {
  type Company,
  type CustomersHarness,
  startCustomersHarness,
} from '../customers/testing/customersHarness';
import { errorOf, jsonOf } from '../http/testing/responses';
import { ledgerCheck } from '../payments/testing/ledgerCheck';
import { appendPayment } from '../transactions/testing/moneyHarness';

let h: CustomersHarness;
let a: Company;
let b: Company;
beforeAll(async () => {
  h = await startCustomersHarness();
  [a, b] = [await h.verifiedCompany(), await h.verifiedCompany()];
});
afterAll(() => h.close());
// After every test: each company's ledger balances and equals captured − refunded.
const ledger = ledgerCheck();
afterEach(() => ledger.verify(h));

const balance = async (token: string, asOf?: string) => {
  const res = await h.call(
    'GET',
    `/api/balance${asOf ? `?asOf=${encodeURIComponent(asOf)}` : ''}`,
    {
      token,
    },
  );
  return { status: res.status, body: await jsonOf(res) };
};
/** The sidebar's figure: the session user's and the profile's fiatBalanceCad. */
const sidebar = async (token: string) => {
  const session = await jsonOf<SessionAnswer>(
    await h.call('GET', '/api/auth/access-token', { token }),
  );
  const profile = await jsonOf(await h.call('GET', '/api/profile/about', { token }));
  expect(profile.fiatBalanceCad).toBe(session.user.data.fiatBalanceCad);
  return session.user.data.fiatBalanceCad;
};
/** A token of the company's admin with other roles, as a staff or plain user would carry. */
const tokenWithRoles = async (company: Company, roles: string[]) =>
  (
    await signAccessToken(
      h.deps.config,
      {
        userId: company.userId,
        companyId: company.companyId,
        roles,
        passwordVersion: 1_000,
        sessionId: randomUUID(),
      },
      { tokenId: randomUUID(), now: h.deps.clock() },
    )
  ).token;

describe('the balance after payments and refunds', () => {
  it('starts at zero', async () => {
    expect(await balance(a.token)).toEqual({
      status: 200,
      body: { currency: 'CAD', availableCents: 0, asOf: null },
    });
    expect(await sidebar(a.token)).toBe(0);
  });

  it('is right the moment a payment and a refund are visible (read-your-writes), sidebar included', async () => {
    await appendPayment(h, a, { amountCents: 10_050, capturedAt: '2026-01-10T10:00:00.000Z' });
    expect((await balance(a.token)).body).toMatchObject({ availableCents: 10_050 });
    expect(await sidebar(a.token)).toBe(100.5);
    await appendPayment(h, a, {
      amountCents: 2_000,
      capturedAt: '2026-01-20T10:00:00.000Z',
      refunds: [{ amountCents: 1_999, refundedAt: '2026-01-25T10:00:00.000Z' }],
    });
    expect((await balance(a.token)).body).toMatchObject({ availableCents: 10_051 });
    expect(await sidebar(a.token)).toBe(100.51);
    expect((await ledgerConsistency(h.pool, a.companyId)).balanced).toBe(true);
    expect((await balance(b.token)).body).toMatchObject({ availableCents: 0 });
  });

  it('answers the balance as of a time for admin and compliance', async () => {
    const compliance = await h.complianceToken(a.token);
    const asOf = async (time: string, token = compliance) => (await balance(token, time)).body;
    expect(await asOf('2026-01-09T23:59:59Z')).toEqual({
      currency: 'CAD',
      availableCents: 0,
      asOf: '2026-01-09T23:59:59.000Z',
    });
    expect(await asOf('2026-01-10T10:00:00Z')).toMatchObject({ availableCents: 10_050 });
    expect(await asOf('2026-01-21')).toMatchObject({ availableCents: 12_050 });
    expect(await asOf('2026-01-31T23:59:59Z', a.token)).toMatchObject({ availableCents: 10_051 });
    expect(await asOf('2026-01-31T23:59:59Z', b.token)).toMatchObject({ availableCents: 0 });
  });

  it('refuses asOf to other roles (403) and a bad asOf (400 naming asOf)', async () => {
    const staff = await tokenWithRoles(a, ['staff', 'user']);
    expect((await balance(staff)).body).toMatchObject({ availableCents: 10_051 });
    expect((await balance(staff, '2026-01-31T00:00:00Z')).status).toBe(403);
    for (const bad of ['yesterday', '2026-13-01', '2026-02-30', '31/01/2026', '']) {
      const res = await h.call('GET', `/api/balance?asOf=${encodeURIComponent(bad)}`, {
        token: a.token,
      });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).fields).toHaveProperty('asOf');
    }
    expect((await h.call('GET', '/api/balance?as_of=2026-01-01', { token: a.token })).status).toBe(
      400,
    );
    expect((await h.call('GET', '/api/balance')).status).toBe(401);
  });
});

describe('the operator’s company list', () => {
  it('shows each company’s ledger balance', async () => {
    const login = await h.call('POST', '/api/auth', {
      body: { email: 'ops@customers.test', password: 'aurora-Lynx-2025' },
    });
    const operator = (await jsonOf<SessionAnswer>(login)).access_token;
    const one = await jsonOf(
      await h.call('GET', `/api/operator/companies/${a.companyId}`, { token: operator }),
    );
    expect(one.fiatBalanceCad).toBe(100.51);
    const all = await jsonOf<{ id: string; fiatBalanceCad: number }[]>(
      await h.call('GET', '/api/operator/companies?range=[0,99]', { token: operator }),
    );
    expect(all.find((company) => company.id === a.companyId)?.fiatBalanceCad).toBe(100.51);
    expect(all.find((company) => company.id === b.companyId)?.fiatBalanceCad).toBe(0);
  });
});
