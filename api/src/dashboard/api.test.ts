import { investorStatuses } from '@issuer/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, jsonOf } from '../http/testing/responses';
import {
  type BillingHarness,
  type Payee,
  startBillingHarness,
} from '../subscriptions/testing/billingHarness';
import { createOrderProcessor, migrateOrderProcessor } from '../tokenOrders/orderProcessor';
import { SimulatedTokenLedger } from '../tokenOrders/tokenLedger';
import type { Dashboard } from './api';

let h: BillingHarness;
let a: Payee;
let b: Payee;
let counter = 0;

type Json = Record<string, unknown>;

const get = async <T>(token: string, path: string) => {
  const res = await h.call('GET', path, { token });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return { body: await jsonOf<T>(res), headers: res.headers };
};
const post = async (token: string, path: string, body: Json, status = 201) => {
  const res = await h.call('POST', path, { token, body });
  if (res.status !== status) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return jsonOf<Json>(res);
};
const dashboard = (company: Payee, query = '') =>
  get<Dashboard>(company.token, `/api/dashboard${query}`).then((answer) => answer.body);
const totalOf = (headers: Headers) => Number(headers.get('Content-Range')?.split('/')[1]);

/** One customer, moved forward through the workflow to `status`. */
async function customerAt(company: Payee, status: string) {
  counter += 1;
  const customer = await post(company.token, '/api/customers', {
    name: `Investor ${counter}`,
    email: `investor${counter}-${Date.now().toString(36)}@dashboard.test`,
  });
  const path = ['Registered with the product', 'KYC Under Review', 'KYC Complete'];
  for (const step of path.slice(0, path.indexOf(status) + 1)) {
    await post(
      company.token,
      `/api/customers/${customer.id}/investor-status`,
      { status: step },
      200,
    );
  }
  return customer.id as string;
}

beforeAll(async () => {
  h = await startBillingHarness();
  a = await h.companyWithCustomer();
  b = await h.companyWithCustomer();
}, 60_000);
afterAll(() => h?.close());

describe('a company with customers, payments, a subscription and a cap table', () => {
  let holderId: string;

  beforeAll(async () => {
    await customerAt(a, 'KYC Complete');
    await customerAt(a, 'KYC Complete');
    holderId = await customerAt(a, 'Registered with the product');
    // A card payment taken through the terminal simulator (captured: the balance moves) …
    await h.saveCard(a);
    // … and two left waiting at a terminal (pending).
    const terminal = await post(a.token, '/api/terminals', {
      name: 'Front desk',
      deviceId: `dash_${Date.now().toString(36)}`,
    });
    for (const amountCents of [1234, 5000]) {
      await post(a.token, '/api/payments', {
        terminalId: terminal.id,
        amountCents,
        currency: 'CAD',
      });
    }
    // Subscriptions: monthly 15.00, every 2 weeks 10.00 (10 × 52/12/2 = 21.666… a month).
    const monthly = await h.plan(a, { amountCents: 1500, interval: 'month' });
    const biweekly = await h.plan(a, { amountCents: 1000, interval: 'week', intervalCount: 2 });
    await h.subscribe(a, { customerId: a.customerId, planId: monthly.id });
    await h.subscribe(a, { customerId: holderId, planId: biweekly.id });
    // A share class and two issuances.
    const shares = await post(a.token, '/api/share-classes', {
      name: 'Common',
      kind: 'common',
      votesPerShare: 1,
      authorized: 1_000_000,
    });
    await post(a.token, '/api/issuances', {
      shareClassId: shares.id,
      customerId: holderId,
      shares: 600,
      reason: 'Founder grant',
    });
    await post(a.token, '/api/issuances', {
      shareClassId: shares.id,
      customerId: a.customerId,
      shares: 400,
      reason: 'Seed',
    });
    await h.caughtUp();
  }, 60_000);

  it('counts investor statuses as the customer list filters them', async () => {
    const figures = await dashboard(a);
    expect(figures.investorStatuses.map((row) => row.status)).toEqual([...investorStatuses]);
    for (const { status, count } of figures.investorStatuses) {
      const filter = encodeURIComponent(JSON.stringify({ investorStatus: status }));
      const list = await get(a.token, `/api/customers?filter=${filter}&range=[0,0]`);
      expect(count, status).toBe(totalOf(list.headers));
    }
    expect(figures.investorStatuses.find((row) => row.status === 'KYC Complete')?.count).toBe(2);
    const all = await get(a.token, '/api/customers?range=[0,0]');
    expect(figures.customers).toBe(totalOf(all.headers));
  });

  it('shows the balance of /api/balance and the pending payments of the pending list', async () => {
    const figures = await dashboard(a);
    const balance = await get<{ availableCents: number }>(a.token, '/api/balance');
    expect(figures.balance.availableCents).toBe(balance.body.availableCents);
    expect(figures.balance.availableCents).toBeGreaterThan(0);
    const filter = encodeURIComponent(JSON.stringify({ status: 'pending' }));
    const pending = await get<{ amountCents: number }[]>(
      a.token,
      `/api/payments?filter=${filter}&range=[0,999]`,
    );
    expect(figures.pendingPayments).toEqual({
      count: totalOf(pending.headers),
      amountCents: pending.body.reduce((sum, row) => sum + row.amountCents, 0),
    });
    expect(figures.pendingPayments).toEqual({ count: 2, amountCents: 6234 });
  });

  it('normalises the billing subscriptions to a month for MRR', async () => {
    const figures = await dashboard(a);
    const subscriptions = await get<
      { status: string; amountCents: number; interval: string; intervalCount: number }[]
    >(a.token, '/api/subscriptions?range=[0,999]');
    const perMonth = { week: 52 / 12, month: 1, year: 1 / 12 } as Record<string, number>;
    const billing = subscriptions.body.filter((s) => ['active', 'past_due'].includes(s.status));
    const expected = billing.reduce(
      (sum, s) => sum + (s.amountCents * (perMonth[s.interval] ?? 0)) / s.intervalCount,
      0,
    );
    expect(figures.monthlyRecurringRevenue).toEqual({
      amountCents: Math.round(expected),
      subscriptions: billing.length,
    });
    expect(billing).toHaveLength(2);
    expect(figures.monthlyRecurringRevenue.amountCents).toBe(1500 + 2167);
  });

  it('gives the cap table’s holders, classes and top holders', async () => {
    const figures = await dashboard(a, '?top=1');
    const table = await get<{
      totals: { holders: number; issued: number; authorized: number };
      shareClasses: Json[];
      holders: { customerId: string; shares: number; percentOwned: number }[];
    }>(a.token, '/api/cap-table?range=[0,0]');
    const { holders, issued, authorized } = table.body.totals;
    expect(figures.capTable).toMatchObject({ holders, issued, authorized });
    expect(figures.capTable.holders).toBe(2);
    expect(figures.capTable.shareClasses.map((c) => c.id)).toEqual(
      table.body.shareClasses.map((c) => c.id),
    );
    expect(figures.capTable.topHolders).toEqual([
      expect.objectContaining({ customerId: holderId, shares: 600, percentOwned: 60 }),
    ]);
    expect(figures.capTable.topHolders.map((row) => row.customerId)).toEqual(
      table.body.holders.map((row) => row.customerId),
    );
  });

  it('lists the newest audit entries as the audit log does', async () => {
    const figures = await dashboard(a, '?activity=5');
    const audit = await get<Json[]>(a.token, '/api/audit?range=[0,4]');
    expect(figures.recentActivity?.map((entry) => entry.id)).toEqual(
      audit.body.map((entry) => entry.id),
    );
    expect(figures.recentActivity).toHaveLength(5);
  });

  it('gives each entry the amount its event names, as the audit log gives it', async () => {
    const figures = await dashboard(a, '?activity=20');
    const audit = await get<
      { id: string; amountCents: number | null; details: { amountCents?: number } }[]
    >(a.token, '/api/audit?range=[0,19]');
    for (const entry of audit.body)
      expect(entry.amountCents).toBe(entry.details.amountCents ?? null);
    const recorded = new Map(audit.body.map((entry) => [entry.id, entry.details.amountCents]));
    const entries = figures.recentActivity ?? [];
    for (const entry of entries) expect(entry.amountCents).toBe(recorded.get(entry.id) ?? null);
    const amounts = entries.map((entry) => entry.amountCents);
    expect(amounts).toEqual(expect.arrayContaining([1234, 5000, null]));
  });

  it('has no funding round to chart, and says so', async () => {
    expect((await dashboard(a)).fundingProgress).toEqual({ available: false, series: [] });
  });

  it('shows another company only its own zeros', async () => {
    const figures = await dashboard(b);
    expect(figures.customers).toBe(1);
    expect(figures.balance.availableCents).toBe(0);
    expect(figures.pendingPayments).toEqual({ count: 0, amountCents: 0 });
    expect(figures.monthlyRecurringRevenue).toEqual({ amountCents: 0, subscriptions: 0 });
    expect(figures.capTable).toMatchObject({
      holders: 0,
      issued: 0,
      shareClasses: [],
      topHolders: [],
    });
    expect(figures.recentActivity?.every((entry) => entry.resource !== 'payments')).toBe(true);
  });
});

describe('funding progress', () => {
  it('charts the money raised by a round, day by day, up to the round’s amount raised', async () => {
    const issuer = await h.issuerCompany();
    const terminal = await post(issuer.token, '/api/terminals', {
      name: 'Round desk',
      deviceId: `fund_${Date.now().toString(36)}`,
    });
    const shares = await post(issuer.token, '/api/share-classes', {
      name: 'Tokens',
      kind: 'common',
      votesPerShare: 1,
      authorized: 1_000_000,
    });
    const now = h.deps.clock().getTime();
    const round = await post(issuer.token, '/api/funding-rounds', {
      name: 'Seed',
      handle: `seed-${Date.now().toString(36)}`,
      shareClassId: shares.id,
      tokenPriceCents: 100,
      raiseAmountCents: 100_000,
      opensAt: new Date(now - 60_000).toISOString(),
      closesAt: new Date(now + 30 * 86_400_000).toISOString(),
    });
    const empty = (await get<Dashboard>(issuer.token, '/api/dashboard')).body.fundingProgress;
    expect(empty.available).toBe(true);
    expect(empty.series).toHaveLength(14);
    expect(empty.series.every((point) => point.raisedCents === 0)).toBe(true);

    await post(issuer.token, `/api/funding-rounds/${round.id}/open`, {}, 200);
    const customer = await h.addCustomer(issuer.token, {
      name: 'Round Investor',
      email: `round-${Date.now().toString(36)}@dashboard.test`,
      walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
      investorStatus: 'KYC Complete',
    });
    const order = await post(issuer.token, '/api/token-orders', {
      roundId: round.id,
      customerId: customer.id,
      tokens: 250,
      payment: { method: 'terminal', terminalId: terminal.id },
    });
    await post(issuer.token, `/api/terminals/${terminal.id}/simulator/present-card`, {}, 202);
    await migrateOrderProcessor(h.pool);
    const processor = createOrderProcessor(h.deps, new SimulatedTokenLedger({ delayMs: 0 }));
    await expect
      .poll(async () => {
        await h.bill();
        await processor.runOnce();
        return (await h.get(issuer as Payee, `/api/token-orders/${order.id}`)).status;
      })
      // Past funds_received: the processor sells the round's tokens when it handles that event,
      // which a pass may not have seen yet when the order already shows it.
      .not.toMatch(/^(created|awaiting_payment|funds_received)$/);
    await h.caughtUp();

    const raised = await h.get(issuer as Payee, `/api/funding-rounds/${round.id}`);
    expect(raised.amountRaisedCents).toBe(25_000);
    const answer = (await get<Dashboard>(issuer.token, '/api/dashboard')).body;
    const { series } = answer.fundingProgress;
    expect(series).toHaveLength(14);
    expect(series.at(-1)?.raisedCents).toBe(raised.amountRaisedCents);
    expect(series.at(-1)?.at).toBe(`${answer.asOf.slice(0, 10)}T00:00:00.000Z`);
    expect(series.at(-2)?.raisedCents).toBe(0);
    // Another company sees none of it.
    expect((await dashboard(b)).fundingProgress).toEqual({ available: false, series: [] });
  });
});

describe('who may read it', () => {
  it('answers 401 without a token and 403 for a company not verified yet', async () => {
    expect((await h.call('GET', '/api/dashboard')).status).toBe(401);
    const pending = await h.unverifiedCompany();
    expect((await h.call('GET', '/api/dashboard', { token: pending.token })).status).toBe(403);
  });

  it('gives a compliance reviewer the figures with the audit trail', async () => {
    const token = await h.complianceToken(a.token);
    const figures = await get<Dashboard>(token, '/api/dashboard?activity=1');
    expect(figures.body.recentActivity).toHaveLength(1);
    expect(figures.body.pendingPayments.count).toBe(2);
  });
});

describe('bad input', () => {
  it.each([
    ['top', '?top=0'],
    ['top', '?top=21'],
    ['top', '?top=abc'],
    ['activity', '?activity=-1'],
    ['activity', '?activity=1000'],
  ])('answers 400 naming %s for %s', async (field, query) => {
    const res = await h.call('GET', `/api/dashboard${query}`, { token: a.token });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields).toHaveProperty([field]);
  });

  it('refuses an unknown parameter', async () => {
    const res = await h.call('GET', '/api/dashboard?everything=1', { token: a.token });
    expect(res.status).toBe(400);
  });
});
