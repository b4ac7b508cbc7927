import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf } from '../http/testing/responses';
import { createPaymentScheduler } from '../payments/scheduler/paymentScheduler';
import { type BillingHarness, type Payee, startBillingHarness } from './testing/billingHarness';

let h: BillingHarness;
let company: Payee;

beforeAll(async () => {
  h = await startBillingHarness();
  company = await h.companyWithCustomer();
});
afterAll(() => h?.close());

const eventCount = async () =>
  Number((await h.pool.query<{ n: string }>('SELECT count(*) AS n FROM es_events')).rows[0]?.n);

it('replayed from its first event (a crash before the checkpoint moved), the collector requests and pays nothing twice', async () => {
  const plan = await h.plan(company, { amountCents: 4200 });
  const sub = await h.subscribe(company, { customerId: company.customerId, planId: plan.id });
  await h.bill();
  const [invoice] = (await h.get(company, `/api/subscriptions/${sub.id}`)).invoices as {
    etransferId: string;
  }[];
  const deposit = await h.call(
    'POST',
    `/api/etransfers/${invoice?.etransferId}/simulator/deposit`,
    {
      token: company.token,
    },
  );
  expect(deposit.status).toBe(202);
  await h.bill();
  expect(await h.get(company, `/api/subscriptions/${sub.id}`)).toMatchObject({
    status: 'active',
    invoices: [{ status: 'paid', attempts: 1 }],
  });
  const balance = await h.balance(company.token);
  const before = await eventCount();

  await h.pool.query(
    "UPDATE process_checkpoints SET position = -1 WHERE name = 'billingCollector'",
  );
  expect(await h.collector.runOnce()).toBeGreaterThan(0);
  await h.bill();
  // Not one event more: no second request, payment or wallet entry.
  expect(await eventCount()).toBe(before);
  expect(await h.balance(company.token)).toBe(balance);
});

describe('collecting by a saved card', () => {
  const cardPayments = async (companyId: string) =>
    (
      await h.pool.query<{ status: string; n: number }>(
        `SELECT status, count(*)::int AS n FROM terminal_simulator_payments
          WHERE company_id = $1 AND terminal_id = 'off_session' GROUP BY status ORDER BY status`,
        [companyId],
      )
    ).rows;

  it('refuses a card subscription without a saved card (409 naming paymentMethodId), another company’s card (404)', async () => {
    const payee = await h.companyWithCustomer();
    const other = await h.companyWithCustomer();
    const theirs = await h.saveCard(other);
    const plan = await h.plan(payee);
    const none = await h.call('POST', '/api/subscriptions', {
      token: payee.token,
      body: { customerId: payee.customerId, planId: plan.id, collectionMethod: 'card' },
    });
    expect(none.status).toBe(409);
    expect((await jsonOf<{ error: { fields: object } }>(none)).error.fields).toHaveProperty(
      'paymentMethodId',
    );
    const foreign = await h.call('POST', '/api/subscriptions', {
      token: payee.token,
      body: {
        customerId: payee.customerId,
        planId: plan.id,
        collectionMethod: 'card',
        paymentMethodId: theirs,
      },
    });
    expect(foreign.status).toBe(404);
  });

  it('an approved card pays the invoice once, the balance grows by it, and a replay charges nothing again', async () => {
    const payee = await h.companyWithCustomer();
    const cardId = await h.saveCard(payee);
    const plan = await h.plan(payee, { amountCents: 4200 });
    const sub = await h.subscribe(payee, {
      customerId: payee.customerId,
      planId: plan.id,
      collectionMethod: 'card',
    });
    expect(sub).toMatchObject({ collectionMethod: 'card', paymentMethodId: cardId });
    const before = await h.balance(payee.token);
    await h.bill();
    const billed = await h.get(payee, `/api/subscriptions/${sub.id}`);
    expect(billed).toMatchObject({
      status: 'active',
      invoices: [{ status: 'paid', attempts: 1, etransferId: null }],
    });
    const [invoice] = billed.invoices as { id: string; paymentId: string }[];
    const payment = await h.get(payee, `/api/payments/${invoice?.paymentId}`);
    expect(payment).toMatchObject({
      status: 'captured',
      amountCents: 4200,
      terminalId: 'off_session',
      customerId: payee.customerId,
      cardLast4: '4242',
      // What it pays, for each reader's language to name; the description says it in English.
      description: expect.stringMatching(/^Invoice \S+: /),
      purpose: {
        kind: 'invoice',
        invoiceId: invoice?.id,
        invoiceNumber: expect.any(String),
        planName: expect.any(String),
      },
    });
    expect(await h.balance(payee.token)).toBe(before + 4200);
    expect(await cardPayments(payee.companyId)).toEqual([{ status: 'captured', n: 1 }]);

    const events = await eventCount();
    await h.pool.query(
      "UPDATE process_checkpoints SET position = -1 WHERE name = 'billingCollector'",
    );
    await h.collector.runOnce();
    await h.bill();
    expect(await eventCount()).toBe(events);
    expect(await cardPayments(payee.companyId)).toEqual([{ status: 'captured', n: 1 }]);
    expect(await h.balance(payee.token)).toBe(before + 4200);

    // A normal payment: refunds work on it as on any other.
    const refund = await h.call('POST', `/api/payments/${invoice?.paymentId}/refunds`, {
      token: payee.token,
      body: { amountCents: 1000, reason: 'Goodwill' },
    });
    expect(refund.status).toBe(201);
    expect(await jsonOf<{ refundedCents: number }>(refund)).toMatchObject({ refundedCents: 1000 });
    expect(await h.balance(payee.token)).toBe(before + 3200);
  });

  it('a crash around the charge charges once: unreachable gateway → resumed by the payment timer; charged but unrecorded → the replay finds the same charge', async () => {
    const payee = await h.companyWithCustomer();
    await h.saveCard(payee);
    const plan = await h.plan(payee, { amountCents: 3100 });
    const sub = await h.subscribe(payee, {
      customerId: payee.customerId,
      planId: plan.id,
      collectionMethod: 'card',
    });
    const before = await h.balance(payee.token);
    // The gateway is down when the collector charges: the payment is recorded, still pending.
    h.cardGateway.failNextSends(1);
    await h.bill();
    const open = await h.get(payee, `/api/subscriptions/${sub.id}`);
    expect(open).toMatchObject({ invoices: [{ status: 'open', attempts: 1 }] });
    const [invoice] = open.invoices as { paymentId: string }[];
    expect(await h.get(payee, `/api/payments/${invoice?.paymentId}`)).toMatchObject({
      status: 'pending',
    });
    expect(await cardPayments(payee.companyId)).toEqual([]);
    // The payment timer resumes unsent payments (as after a restart); the gateway charges once.
    await createPaymentScheduler(h.deps, { resumeAfterMs: 0 }).runOnce();
    await h.bill();
    expect(await h.get(payee, `/api/subscriptions/${sub.id}`)).toMatchObject({
      status: 'active',
      invoices: [{ status: 'paid', attempts: 1 }],
    });
    // A second send of the same payment (a crash after the gateway took it): nothing new.
    await h.cardGateway.chargeSavedCard({
      paymentId: invoice?.paymentId ?? '',
      companyId: payee.companyId,
      cardToken: 'card_any',
      amountCents: 3100,
      currency: 'CAD',
    });
    await h.pool.query(
      "UPDATE process_checkpoints SET position = -1 WHERE name = 'billingCollector'",
    );
    await h.bill();
    expect(await cardPayments(payee.companyId)).toEqual([{ status: 'captured', n: 1 }]);
    expect(await h.balance(payee.token)).toBe(before + 3100);
  });

  // Last: it moves the clock days ahead.
  it('a declined card retries after 1, 3 and 5 days (past_due), then the subscription is unpaid', async () => {
    const payee = await h.companyWithCustomer();
    // Stripe's 4000 0000 0000 0341: saving works, every later off-session charge is declined.
    await h.saveCard(payee, '4000000000000341');
    const plan = await h.plan(payee, { amountCents: 990 });
    const sub = await h.subscribe(payee, {
      customerId: payee.customerId,
      planId: plan.id,
      collectionMethod: 'card',
    });
    const before = await h.balance(payee.token);
    await h.bill();
    const start = Date.parse(
      (await h.get(payee, `/api/subscriptions/${sub.id}`)).startAt as string,
    );
    const seen: unknown[] = [];
    for (const days of [1, 2, 2]) {
      const now = await h.get(payee, `/api/subscriptions/${sub.id}`);
      seen.push(now.status);
      await h.advanceDays(payee, days);
      await h.bill();
    }
    const after = await h.get(payee, `/api/subscriptions/${sub.id}`);
    expect(seen).toEqual(['past_due', 'past_due', 'past_due']);
    expect(after).toMatchObject({ status: 'unpaid', invoices: [{ status: 'open', attempts: 4 }] });
    const failures = await h.pool.query<{ attempt: number; next: string | null }>(
      `SELECT (data->>'attempt')::int AS attempt, data->>'nextAttemptAt' AS next FROM es_events
        WHERE stream_id = $1 AND type = 'InvoicePaymentFailed' ORDER BY position`,
      [`Subscription-${sub.id}`],
    );
    const day = 86_400_000;
    expect(
      failures.rows.map((row) => [row.attempt, row.next && Date.parse(row.next) - start]),
    ).toEqual([
      [1, day],
      [2, 3 * day],
      [3, 5 * day],
      [4, null],
    ]);
    expect(await cardPayments(payee.companyId)).toEqual([{ status: 'declined', n: 4 }]);
    expect(await h.balance(payee.token)).toBe(before);
  });
});
