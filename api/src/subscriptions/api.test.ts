import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, jsonOf } from '../http/testing/responses';
import {
  type BillingHarness,
  type Payee,
  type Resource,
  startBillingHarness,
} from './testing/billingHarness';

let h: BillingHarness;
let a: Payee;
let b: Payee;
const day = 86_400_000;

beforeAll(async () => {
  h = await startBillingHarness();
  a = await h.companyWithCustomer();
  b = await h.companyWithCustomer();
});
afterEach(() => h.ledger.verify(h));
afterAll(() => h?.close());

const post = (company: Payee, path: string, body?: unknown) =>
  h.call('POST', path, { token: company.token, body });

async function fieldsOf(res: Response, status = 400) {
  expect(res.status).toBe(status);
  return (await errorOf(res)).fields ?? {};
}

async function list(company: Payee, path: string, filter: object = {}) {
  const res = await h.call('GET', `${path}?filter=${encodeURIComponent(JSON.stringify(filter))}`, {
    token: company.token,
  });
  expect(res.status).toBe(200);
  return { range: res.headers.get('Content-Range'), rows: await jsonOf<Resource[]>(res) };
}

describe('plans', () => {
  it('creates, lists, updates and archives a plan', async () => {
    const plan = await h.plan(a, {
      name: 'Silver',
      amountCents: 900,
      interval: 'week',
      intervalCount: 2,
      trialDays: 7,
    });
    expect(plan).toMatchObject({
      id: expect.stringMatching(/^plan_/),
      name: 'Silver',
      amountCents: 900,
      currency: 'CAD',
      interval: 'week',
      intervalCount: 2,
      trialDays: 7,
      status: 'active',
      activeSubscriptions: 0,
    });
    const listed = await list(a, '/api/plans');
    expect(listed.rows.map((row) => row.id)).toContain(plan.id);
    expect(listed.range).toMatch(/^plans 0-\d+\/\d+$/);
    const put = await h.call('PUT', `/api/plans/${plan.id}`, {
      token: a.token,
      body: { name: 'Silver+', amountCents: 1100, interval: 'week' },
    });
    expect(put.status).toBe(200);
    expect(await jsonOf(put)).toMatchObject({
      name: 'Silver+',
      amountCents: 1100,
      intervalCount: 1,
      trialDays: 0,
    });
    const archived = await post(a, `/api/plans/${plan.id}/archive`);
    expect(await jsonOf(archived)).toMatchObject({ status: 'archived' });
    expect((await post(a, `/api/plans/${plan.id}/archive`)).status).toBe(200);
  });

  it('answers bad input with 400 naming the field', async () => {
    const bad = (body: object) =>
      post(a, '/api/plans', { name: 'X', amountCents: 100, interval: 'month', ...body });
    expect(await fieldsOf(await bad({ name: '' }))).toHaveProperty('name');
    expect(await fieldsOf(await bad({ amountCents: 1.5 }))).toHaveProperty('amountCents');
    expect(await fieldsOf(await bad({ interval: 'day' }))).toHaveProperty('interval');
    expect(await fieldsOf(await bad({ interval: 'month', intervalCount: 13 }))).toHaveProperty(
      'intervalCount',
    );
    expect(await fieldsOf(await bad({ trialDays: -2 }))).toHaveProperty('trialDays');
    expect(await fieldsOf(await bad({ surprise: 1 }))).toHaveProperty('surprise');
  });

  it("another company's plan is 404 everywhere", async () => {
    const plan = await h.plan(a);
    expect((await h.call('GET', `/api/plans/${plan.id}`, { token: b.token })).status).toBe(404);
    expect(
      (
        await h.call('PUT', `/api/plans/${plan.id}`, {
          token: b.token,
          body: { name: 'Mine', amountCents: 100, interval: 'month' },
        })
      ).status,
    ).toBe(404);
    expect((await post(b, `/api/plans/${plan.id}/archive`)).status).toBe(404);
    expect(
      (await post(b, '/api/subscriptions', { customerId: b.customerId, planId: plan.id })).status,
    ).toBe(404);
    expect((await list(b, '/api/plans')).rows.map((row) => row.id)).not.toContain(plan.id);
  });
});

describe('subscriptions', () => {
  it('subscribes with a trial, lists it by view, pauses, resumes, cancels at period end, then now', async () => {
    const plan = await h.plan(a, { trialDays: 14 });
    const sub = await h.subscribe(a, { customerId: a.customerId, planId: plan.id });
    expect(sub).toMatchObject({
      id: expect.stringMatching(/^sub_/),
      status: 'trialing',
      customerId: a.customerId,
      customerName: expect.stringContaining('Ada'),
      planId: plan.id,
      collectionMethod: 'etransfer',
      amountCents: 1500,
      trialEndsAt: new Date(h.deps.clock().getTime() + 14 * day).toISOString(),
      nextBillAt: new Date(h.deps.clock().getTime() + 14 * day).toISOString(),
      nextInvoiceAt: new Date(h.deps.clock().getTime() + 14 * day).toISOString(),
      invoices: [],
    });
    expect(
      (await list(a, '/api/subscriptions', { view: 'trialing' })).rows.map((r) => r.id),
    ).toContain(sub.id);
    expect(
      (await list(a, '/api/subscriptions', { view: 'active' })).rows.map((r) => r.id),
    ).not.toContain(sub.id);
    expect((await h.get(a, `/api/plans/${plan.id}`)).activeSubscriptions).toBe(1);

    // Paused, it issues no invoice; resumed, the next one is due again.
    expect(await jsonOf(await post(a, `/api/subscriptions/${sub.id}/pause`))).toMatchObject({
      status: 'paused',
      nextInvoiceAt: null,
    });
    expect(
      (await list(a, '/api/subscriptions', { view: 'paused' })).rows.map((r) => r.id),
    ).toContain(sub.id);
    expect(await jsonOf(await post(a, `/api/subscriptions/${sub.id}/resume`))).toMatchObject({
      status: 'trialing',
      nextInvoiceAt: sub.nextBillAt,
    });
    const scheduled = await jsonOf(
      await post(a, `/api/subscriptions/${sub.id}/cancel`, { atPeriodEnd: true }),
    );
    // Ending with its period, it is billed no more: the period's end is no next invoice.
    expect(scheduled).toMatchObject({
      status: 'trialing',
      cancelAt: sub.nextBillAt,
      nextBillAt: sub.nextBillAt,
      nextInvoiceAt: null,
    });
    expect(
      (await list(a, '/api/subscriptions', { view: 'trialing' })).rows.find((r) => r.id === sub.id),
    ).toMatchObject({ nextInvoiceAt: null });
    const cancelled = await jsonOf(await post(a, `/api/subscriptions/${sub.id}/cancel`, {}));
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      cancellationReason: 'requested',
      nextBillAt: null,
      nextInvoiceAt: null,
    });
    expect(
      (await list(a, '/api/subscriptions', { view: 'cancelled' })).rows.map((r) => r.id),
    ).toContain(sub.id);
    expect((await post(a, `/api/subscriptions/${sub.id}/pause`)).status).toBe(409);

    const legacy = await h.call('GET', '/api/contacts-app/subscriptions?id=cancelled', {
      token: a.token,
    });
    expect((await jsonOf<Resource[]>(legacy)).map((r) => r.id)).toContain(sub.id);
    const legacyB = await h.call('GET', '/api/contacts-app/subscriptions', { token: b.token });
    expect((await jsonOf<Resource[]>(legacyB)).map((r) => r.id)).not.toContain(sub.id);
  });

  it('answers bad input with 400 naming the field', async () => {
    const plan = await h.plan(a);
    const bad = (body: object) =>
      post(a, '/api/subscriptions', { customerId: a.customerId, planId: plan.id, ...body });
    expect(await fieldsOf(await bad({ customerId: '' }))).toHaveProperty('customerId');
    expect(await fieldsOf(await bad({ planId: 7 }))).toHaveProperty('planId');
    expect(await fieldsOf(await bad({ collectionMethod: 'cash' }))).toHaveProperty(
      'collectionMethod',
    );
    // No saved card yet: 409 naming what is missing.
    expect(await fieldsOf(await bad({ collectionMethod: 'card' }), 409)).toHaveProperty(
      'paymentMethodId',
    );
    expect(
      await fieldsOf(await bad({ collectionMethod: 'card', paymentMethodId: 5 })),
    ).toHaveProperty('paymentMethodId');
    expect(await fieldsOf(await bad({ paymentMethodId: 'pm_x' }))).toHaveProperty(
      'paymentMethodId',
    );
    expect(await fieldsOf(await bad({ startAt: 'tomorrow' }))).toHaveProperty('startAt');
    expect(await fieldsOf(await bad({ startAt: '2001-01-01T00:00:00Z' }))).toHaveProperty(
      'startAt',
    );
    const archived = await h.plan(a);
    await post(a, `/api/plans/${archived.id}/archive`);
    expect(await fieldsOf(await bad({ planId: archived.id }))).toHaveProperty('planId');
    expect((await bad({ customerId: b.customerId })).status).toBe(404);
    const res = await h.call('POST', '/api/subscriptions/sub_nope/cancel', {
      token: a.token,
      body: { atPeriodEnd: 'yes' },
    });
    expect(await fieldsOf(res)).toHaveProperty('atPeriodEnd');
  });

  it("another company's subscription is 404 everywhere", async () => {
    const sub = await h.subscribe(a, { customerId: a.customerId, planId: (await h.plan(a)).id });
    expect((await h.call('GET', `/api/subscriptions/${sub.id}`, { token: b.token })).status).toBe(
      404,
    );
    for (const action of ['pause', 'resume', 'cancel']) {
      expect((await post(b, `/api/subscriptions/${sub.id}/${action}`, {})).status).toBe(404);
    }
    expect((await list(b, '/api/subscriptions')).rows.map((r) => r.id)).not.toContain(sub.id);
    expect((await h.call('GET', '/api/subscriptions/sub_x', { token: a.token })).status).toBe(404);
  });
});

// Last: moving the clock days ahead expires every token signed before (advanceDays signs in again).
describe('billing through the API', () => {
  it('bills a period, the customer pays the e-transfer, the invoice is paid and the balance grows', async () => {
    const company = await h.companyWithCustomer();
    const sub = await h.subscribe(company, {
      customerId: company.customerId,
      planId: (await h.plan(company, { amountCents: 2500 })).id,
    });
    const before = await h.balance(company.token);
    await h.bill();
    const billed = await h.get(company, `/api/subscriptions/${sub.id}`);
    const [invoice] = billed.invoices as Resource[];
    expect(billed).toMatchObject({ status: 'active', invoiceCount: 1 });
    expect(invoice).toMatchObject({
      status: 'open',
      amountCents: 2500,
      attempts: 1,
      periodIndex: 0,
    });
    const etransfer = await h.etransfer(company.token, String(invoice?.etransferId));
    expect(etransfer).toMatchObject({
      kind: 'request',
      status: 'sent',
      amountCents: 2500,
      customerId: company.customerId,
      invoiceId: invoice?.id,
      reference: invoice?.number,
      purpose: {
        kind: 'invoice',
        invoiceId: invoice?.id,
        invoiceNumber: invoice?.number,
        planName: expect.any(String),
      },
    });
    const linked = await list(company, '/api/etransfers', { id: [etransfer.id] });
    expect(linked.rows).toMatchObject([{ id: etransfer.id, invoiceId: invoice?.id }]);
    const detail = await h.call('GET', `/api/invoices/${invoice?.id}`, { token: company.token });
    expect(detail.status).toBe(200);
    expect(await jsonOf(detail)).toMatchObject({
      id: invoice?.id,
      subscriptionId: sub.id,
      customerId: company.customerId,
      etransferId: etransfer.id,
      status: 'open',
    });
    const theirs = await h.call('GET', `/api/invoices/${invoice?.id}`, { token: b.token });
    expect(theirs.status).toBe(404);
    expect((await errorOf(theirs)).message).toMatch(/Invoice/);
    expect((await h.call('GET', '/api/invoices/inv_x', { token: a.token })).status).toBe(404);
    expect((await post(company, `/api/etransfers/${etransfer.id}/simulator/deposit`)).status).toBe(
      202,
    );
    await h.bill();
    const invoices = await list(company, '/api/invoices', { subscriptionId: sub.id });
    expect(invoices.rows).toMatchObject([
      { id: invoice?.id, status: 'paid', number: expect.stringMatching(/-0001$/) },
    ]);
    expect(invoices.range).toBe('invoices 0-0/1');
    expect(await h.balance(company.token)).toBe(before + 2500);
    expect((await list(b, '/api/invoices', { subscriptionId: sub.id })).rows).toEqual([]);
  });

  it('a declined request makes it past_due, retried after 1, 3 and 5 days, then unpaid (or cancelled, per the setting)', async () => {
    const company = await h.companyWithCustomer();
    const settings = await h.call('PUT', '/api/billing/settings', {
      token: company.token,
      body: { retryDays: [1, 3, 5], afterFinalFailure: 'cancel' },
    });
    expect(await jsonOf(settings)).toEqual({ retryDays: [1, 3, 5], afterFinalFailure: 'cancel' });
    expect(
      await fieldsOf(
        await h.call('PUT', '/api/billing/settings', {
          token: company.token,
          body: { retryDays: [3, 1], afterFinalFailure: 'cancel' },
        }),
      ),
    ).toHaveProperty('retryDays');
    const sub = await h.subscribe(company, {
      customerId: company.customerId,
      planId: (await h.plan(company)).id,
    });
    await h.bill();
    for (const [attempt, waitDays] of [
      [1, 1],
      [2, 2],
      [3, 2],
    ] as const) {
      const current = await h.get(company, `/api/subscriptions/${sub.id}`);
      const invoice = (current.invoices as Resource[])[0];
      expect(invoice?.attempts).toBe(attempt);
      expect(
        (await post(company, `/api/etransfers/${invoice?.etransferId}/simulator/decline`)).status,
      ).toBe(202);
      await h.bill();
      expect(await h.get(company, `/api/subscriptions/${sub.id}`)).toMatchObject({
        status: 'past_due',
      });
      await h.advanceDays(company, waitDays);
      await h.bill();
    }
    const last = (await h.get(company, `/api/subscriptions/${sub.id}`)).invoices as Resource[];
    expect(last[0]?.attempts).toBe(4);
    await post(company, `/api/etransfers/${last[0]?.etransferId}/simulator/decline`);
    await h.bill();
    expect(await h.get(company, `/api/subscriptions/${sub.id}`)).toMatchObject({
      status: 'cancelled',
      cancellationReason: 'payment_failed',
      invoices: [{ status: 'uncollectible', attempts: 4 }],
    });
  });
});
