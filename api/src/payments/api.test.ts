import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, jsonOf } from '../http/testing/responses';
import { type PaymentTerminalGateway, RefundRefused } from './gateway';
import {
  expirePayment,
  loadPayment,
  paymentStream,
  recordGatewayEvent,
  sendPaymentToTerminal,
} from './paymentCommands';
import type { PaymentResource } from './paymentView';
import { ledgerCheck } from './testing/ledgerCheck';
import { type PaymentsHarness, startPaymentsHarness } from './testing/paymentsHarness';

let h: PaymentsHarness;
let company: Awaited<ReturnType<PaymentsHarness['companyWithTerminal']>>;
let other: Awaited<ReturnType<PaymentsHarness['companyWithTerminal']>>;
beforeAll(async () => {
  h = await startPaymentsHarness();
  company = await h.companyWithTerminal();
  other = await h.companyWithTerminal();
});
afterAll(() => h.close());
// After every test: each company's ledger balances and equals captured − refunded.
const ledger = ledgerCheck();
afterEach(() => ledger.verify(h));

const send = (path: string, body?: unknown, token = company.token, headers = {}) =>
  h.call('POST', path, { token, body, headers });
const newPayment = (overrides: Record<string, unknown> = {}) => ({
  terminalId: company.terminalId,
  amountCents: 2500,
  currency: 'CAD',
  ...overrides,
});
const refund = (paymentId: string, amountCents: number, reason = 'Damaged item', headers = {}) =>
  send(`/api/payments/${paymentId}/refunds`, { amountCents, reason }, company.token, headers);
async function capturedPayment(amountCents = 2500) {
  const payment = await h.pay(company.token, newPayment({ amountCents }));
  await h.capture(payment.id);
  return payment;
}

describe('POST /api/payments', () => {
  it('records the payment, sends it to the terminal and answers it pending', async () => {
    const customer = await h.addCustomer(company.token, {
      name: 'Ada',
      lastName: 'Lovelace',
      email: `ada-${Date.now()}@engines.test`,
    });
    const res = await send(
      '/api/payments',
      newPayment({ customerId: customer.id, description: ' Coffee beans ' }),
    );
    expect(res.status).toBe(201);
    const payment = await jsonOf<PaymentResource>(res);
    expect(payment).toEqual({
      id: expect.stringMatching(/^pay_[0-9a-f-]{36}$/),
      terminalId: company.terminalId,
      terminalName: 'Front desk',
      amountCents: 2500,
      currency: 'CAD',
      customerId: customer.id,
      customerName: 'Ada Lovelace',
      description: 'Coffee beans',
      purpose: null,
      status: 'pending',
      declineReason: null,
      cardBrand: null,
      cardLast4: null,
      refundedCents: 0,
      refundableCents: 0,
      refunds: [],
      requestedBy: company.userId,
      requestedAt: h.deps.clock().toISOString(),
      expiresAt: new Date(h.deps.clock().getTime() + 300_000).toISOString(),
      completedAt: null,
    });
    expect(h.gateway.sent.filter((request) => request.paymentId === payment.id)).toEqual([
      {
        paymentId: payment.id,
        companyId: company.companyId,
        terminalId: company.terminalId,
        amountCents: 2500,
        currency: 'CAD',
        expiresAt: payment.expiresAt,
      },
    ]);
    const { state } = await loadPayment(h.deps, payment.id);
    expect(state).toMatchObject({ status: 'sent', gatewayPaymentId: `gw_${payment.id}` });
    const fetched = await h.getPayment(company.token, payment.id);
    expect(await jsonOf(fetched)).toEqual(payment);
  });

  it('answers the first payment again for a repeated Idempotency-Key', async () => {
    const headers = { 'Idempotency-Key': `pay-${Date.now()}` };
    const first = await send('/api/payments', newPayment(), company.token, headers);
    const again = await send('/api/payments', newPayment(), company.token, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    const id = (await jsonOf<PaymentResource>(first)).id;
    expect((await jsonOf<PaymentResource>(again)).id).toBe(id);
    expect(h.gateway.sent.filter((request) => request.paymentId === id)).toHaveLength(1);
  });

  it.each([
    ['a float', 10.5],
    ['a string', '2500'],
    ['a negative amount', -100],
    ['zero', 0],
    ['over the limit', 100_000_000],
    ['null', null],
    ['missing', undefined],
    ['a huge number', 1e300],
    ['a boolean', true],
  ])(
    'refuses amountCents as %s (400 naming the field, nothing appended)',
    async (_kind, amount) => {
      const before = await h.settledHead();
      const res = await send('/api/payments', newPayment({ amountCents: amount }));
      expect(res.status).toBe(400);
      expect((await errorOf(res)).fields).toHaveProperty('amountCents');
      expect(await h.settledHead()).toBe(before);
    },
  );

  it('takes the limits 1 and 99,999,999', async () => {
    expect((await h.pay(company.token, newPayment({ amountCents: 1 }))).amountCents).toBe(1);
    const largest = await h.pay(company.token, newPayment({ amountCents: 99_999_999 }));
    expect(largest.amountCents).toBe(99_999_999);
  });

  it.each([
    ['another currency', { currency: 'USD' }, 'currency'],
    ['no currency', { currency: undefined }, 'currency'],
    ['a description over 500 characters', { description: 'x'.repeat(501) }, 'description'],
    ['no terminal', { terminalId: undefined }, 'terminalId'],
    ['an unknown field', { tip: 100 }, 'tip'],
  ])('refuses %s (400 naming the field)', async (_case, overrides, field) => {
    const before = await h.settledHead();
    const res = await send('/api/payments', newPayment(overrides));
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields).toHaveProperty(field);
    expect(await h.settledHead()).toBe(before);
  });

  it("is 404 for an unknown, a removed or another company's terminal (nothing appended)", async () => {
    const removed = await h.registerTerminal(company.token, 'Old one');
    expect(
      (await h.call('DELETE', `/api/terminals/${removed}`, { token: company.token })).status,
    ).toBe(200);
    for (const terminalId of ['5d1b3f0e-1111-4a4a-8888-000000000000', removed, other.terminalId]) {
      const before = await h.settledHead();
      const res = await send('/api/payments', newPayment({ terminalId }));
      expect(res.status).toBe(404);
      expect((await errorOf(res)).message).toBe('Payment terminal not found');
      expect(await h.settledHead()).toBe(before);
    }
  });

  it("is 404 for another company's, an unknown or a removed customer", async () => {
    const theirs = await h.addCustomer(other.token, {
      name: 'Grace',
      lastName: 'Hopper',
      email: `grace-${Date.now()}@navy.test`,
    });
    const gone = await h.addCustomer(company.token, {
      name: 'Gone',
      lastName: 'Away',
      email: `gone-${Date.now()}@away.test`,
    });
    expect(
      (await h.call('DELETE', `/api/customers/${gone.id}`, { token: company.token })).status,
    ).toBe(200);
    for (const customerId of [theirs.id, gone.id, '5d1b3f0e-2222-4a4a-8888-000000000000']) {
      const res = await send('/api/payments', newPayment({ customerId }));
      expect(res.status).toBe(404);
      expect((await errorOf(res)).message).toBe('Customer not found');
    }
  });

  it('is refused to a compliance user (403), who can still read payments', async () => {
    const payment = await h.pay(company.token, newPayment());
    const compliance = await h.complianceToken(company.token);
    const before = await h.settledHead();
    expect((await send('/api/payments', newPayment(), compliance)).status).toBe(403);
    expect((await send(`/api/payments/${payment.id}/cancel`, undefined, compliance)).status).toBe(
      403,
    );
    expect(
      (
        await send(
          `/api/payments/${payment.id}/refunds`,
          { amountCents: 1, reason: 'x' },
          compliance,
        )
      ).status,
    ).toBe(403);
    expect(await h.settledHead()).toBe(before);
    expect((await h.getPayment(compliance, payment.id)).status).toBe(200);
  });

  it('lets every role that reads payments list the terminals; only an admin changes them', async () => {
    const compliance = await h.complianceToken(company.token);
    const terminals = await h.call('GET', '/api/terminals', { token: compliance });
    expect(terminals.status).toBe(200);
    expect(await jsonOf<{ id: string }[]>(terminals)).toContainEqual(
      expect.objectContaining({ id: company.terminalId }),
    );
    const body = { name: 'Side till', deviceId: 'side-1' };
    expect((await h.call('POST', '/api/terminals', { token: compliance, body })).status).toBe(403);
    const rename = { token: compliance, body: { name: 'Renamed' } };
    expect((await h.call('PATCH', `/api/terminals/${company.terminalId}`, rename)).status).toBe(
      403,
    );
    const remove = { token: compliance };
    expect((await h.call('DELETE', `/api/terminals/${company.terminalId}`, remove)).status).toBe(
      403,
    );
  });

  it('needs a token', async () => {
    expect((await h.call('POST', '/api/payments', { body: newPayment() })).status).toBe(401);
  });
});

describe('POST /api/payments/:id/cancel', () => {
  it('cancels a pending payment and clears it from the terminal', async () => {
    const payment = await h.pay(company.token, newPayment());
    const res = await send(`/api/payments/${payment.id}/cancel`);
    expect(res.status).toBe(200);
    const cancelled = await jsonOf<PaymentResource>(res);
    expect(cancelled).toMatchObject({
      id: payment.id,
      status: 'cancelled',
      completedAt: h.deps.clock().toISOString(),
    });
    expect(h.gateway.cancelled).toContainEqual({
      paymentId: payment.id,
      terminalId: company.terminalId,
    });
  });

  it('is 409 once the payment is no longer pending', async () => {
    const payment = await capturedPayment();
    const res = await send(`/api/payments/${payment.id}/cancel`);
    expect(res.status).toBe(409);
    const cancelled = await h.pay(company.token, newPayment());
    expect((await send(`/api/payments/${cancelled.id}/cancel`)).status).toBe(200);
    expect((await send(`/api/payments/${cancelled.id}/cancel`)).status).toBe(409);
  });
});

describe('POST /api/payments/:id/refunds', () => {
  it('refunds part of a captured payment, several times, up to what was captured', async () => {
    const payment = await capturedPayment(5000);
    const captured = await jsonOf<PaymentResource>(await h.getPayment(company.token, payment.id));
    expect(captured).toMatchObject({
      status: 'captured',
      refundableCents: 5000,
      cardBrand: 'visa',
      cardLast4: '4242',
      completedAt: expect.any(String),
    });

    const first = await refund(payment.id, 1000, ' Damaged item ');
    expect(first.status).toBe(201);
    expect(await jsonOf(first)).toMatchObject({
      status: 'partially_refunded',
      refundedCents: 1000,
      refundableCents: 4000,
      refunds: [
        {
          id: expect.stringMatching(/^rf_/),
          amountCents: 1000,
          reason: 'Damaged item',
          refundedBy: company.userId,
          refundedAt: h.deps.clock().toISOString(),
        },
      ],
    });
    expect((await refund(payment.id, 2500)).status).toBe(201);

    const over = await refund(payment.id, 1501);
    expect(over.status).toBe(409);
    expect(await errorOf(over)).toMatchObject({
      code: 'conflict',
      message: 'The refund exceeds what remains refundable (1500 cents)',
      fields: { amountCents: expect.any(String) },
    });

    const rest = await refund(payment.id, 1500);
    expect(await jsonOf(rest)).toMatchObject({
      status: 'refunded',
      refundedCents: 5000,
      refundableCents: 0,
    });
    expect(h.gateway.refunded.filter((r) => r.paymentId === payment.id)).toHaveLength(3);
    expect((await refund(payment.id, 1)).status).toBe(409);
  });

  it('is 409 for a payment that is not captured', async () => {
    const payment = await h.pay(company.token, newPayment());
    const res = await refund(payment.id, 100);
    expect(res.status).toBe(409);
  });

  it.each([
    ['no reason', { amountCents: 100 }, 'reason'],
    ['a blank reason', { amountCents: 100, reason: '   ' }, 'reason'],
    ['a reason over 500 characters', { amountCents: 100, reason: 'x'.repeat(501) }, 'reason'],
    ['a float', { amountCents: 1.5, reason: 'x' }, 'amountCents'],
    ['zero', { amountCents: 0, reason: 'x' }, 'amountCents'],
    ['a string', { amountCents: '100', reason: 'x' }, 'amountCents'],
  ])('refuses %s (400 naming the field, nothing appended)', async (_case, body, field) => {
    const payment = await capturedPayment();
    const before = await h.settledHead();
    const res = await send(`/api/payments/${payment.id}/refunds`, body);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields).toHaveProperty(field);
    expect(await h.settledHead()).toBe(before);
  });

  it('records a refund once for a repeated Idempotency-Key', async () => {
    const payment = await capturedPayment();
    const headers = { 'Idempotency-Key': `refund-${payment.id}` };
    const first = await refund(payment.id, 700, 'Once', headers);
    const again = await refund(payment.id, 700, 'Once', headers);
    expect(first.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    const after = await jsonOf<PaymentResource>(await h.getPayment(company.token, payment.id));
    expect(after.refunds).toHaveLength(1);
  });

  it('answers 503 when the processor fails a refund; the retry with the same key records it once', async () => {
    const payment = await capturedPayment();
    const recording = h.deps.paymentGateway;
    let failures = 0;
    h.deps.paymentGateway = {
      ...recording,
      async refundPayment(request) {
        if (failures++ === 0) throw new Error('processor timeout');
        await recording.refundPayment(request);
      },
    } satisfies PaymentTerminalGateway;
    const headers = { 'Idempotency-Key': `refund-retry-${payment.id}` };
    try {
      const failed = await refund(payment.id, 900, 'Retry', headers);
      expect(failed.status).toBe(503);
      expect((await errorOf(failed)).code).toBe('gateway_unavailable');
      const retried = await refund(payment.id, 900, 'Retry', headers);
      expect(retried.status).toBe(201);
      const after = await jsonOf<PaymentResource>(retried);
      expect(after.refunds).toHaveLength(1);
      expect(after.refundedCents).toBe(900);
    } finally {
      h.deps.paymentGateway = recording;
    }
    const sentToCard = h.gateway.refunded.filter((r) => r.paymentId === payment.id);
    expect(sentToCard).toEqual([
      {
        paymentId: payment.id,
        refundId: expect.stringMatching(/^rf_/),
        amountCents: 900,
        currency: 'CAD',
      },
    ]);
  });

  it('answers 409 when the processor refuses a refund for good; the refund is failed, asked once', async () => {
    const payment = await capturedPayment(4000);
    const recording = h.deps.paymentGateway;
    let asked = 0;
    h.deps.paymentGateway = {
      ...recording,
      async refundPayment() {
        asked++;
        throw new RefundRefused('lost_or_stolen_card');
      },
    } satisfies PaymentTerminalGateway;
    const headers = { 'Idempotency-Key': `refund-refused-${payment.id}` };
    try {
      const refused = await refund(payment.id, 1500, 'Refused', headers);
      expect(refused.status).toBe(409);
      expect(await errorOf(refused)).toMatchObject({
        code: 'refund_refused',
        message: 'The card processor refused the refund: lost_or_stolen_card',
      });
      const again = await refund(payment.id, 1500, 'Refused', headers);
      expect(again.status).toBe(409);
    } finally {
      h.deps.paymentGateway = recording;
    }
    expect(asked).toBe(1);
    const after = await jsonOf<PaymentResource>(await h.getPayment(company.token, payment.id));
    expect(after).toMatchObject({
      status: 'captured',
      refundedCents: 0,
      refundableCents: 4000,
      refunds: [{ amountCents: 1500, status: 'failed', failureReason: 'lost_or_stolen_card' }],
    });
    const { state } = await loadPayment(h.deps, payment.id);
    expect(state).toMatchObject({ refundedCents: 0 });
    // What the refusal gave back can be refunded again.
    const retried = await refund(payment.id, 4000, 'Whole amount');
    expect(retried.status).toBe(201);
    expect(await jsonOf<PaymentResource>(retried)).toMatchObject({
      status: 'refunded',
      refundedCents: 4000,
    });
  });

  it('never refunds more than was captured under concurrent refunds', async () => {
    const payment = await capturedPayment(10_000);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => refund(payment.id, 3000, 'Concurrent')),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    const after = await jsonOf<PaymentResource>(await h.getPayment(company.token, payment.id));
    expect(after.refundedCents).toBe(9000);
    expect(after.refunds).toHaveLength(3);
    const { state } = await loadPayment(h.deps, payment.id);
    expect(state).toMatchObject({ refundedCents: 9000 });
  });
});

describe('tenancy', () => {
  it('answers 404 to another company on every route for a payment it does not own', async () => {
    const payment = await capturedPayment();
    const pending = await h.pay(company.token, newPayment());
    const before = await h.settledHead();
    expect((await h.getPayment(other.token, payment.id)).status).toBe(404);
    expect((await send(`/api/payments/${pending.id}/cancel`, undefined, other.token)).status).toBe(
      404,
    );
    const theirRefund = await send(
      `/api/payments/${payment.id}/refunds`,
      { amountCents: 100, reason: 'Not mine' },
      other.token,
    );
    expect(theirRefund.status).toBe(404);
    expect(await h.settledHead()).toBe(before);
    expect(
      (await jsonOf<PaymentResource>(await h.getPayment(company.token, pending.id))).status,
    ).toBe('pending');
  });

  it('answers 404 for an id that names no payment', async () => {
    for (const id of ['pay_5d1b3f0e-3333-4a4a-8888-000000000000', 'nope', '..%2F..']) {
      expect((await h.getPayment(company.token, id)).status).toBe(404);
      expect((await send(`/api/payments/${id}/cancel`)).status).toBe(404);
    }
  });

  it('is 403 for a company the operator has not verified yet', async () => {
    const unverified = await h.unverifiedCompany();
    const res = await h.call('POST', '/api/payments', {
      token: unverified.token,
      body: newPayment(),
    });
    expect(res.status).toBe(403);
  });
});

describe('payment commands outside a request (webhook, resumer, expiry)', () => {
  const report = (paymentId: string, id: string, type: 'payment.authorized' | 'payment.captured') =>
    recordGatewayEvent(h.deps, {
      id,
      type,
      paymentId,
      gatewayPaymentId: `gw_${paymentId}`,
      occurredAt: h.deps.clock().toISOString(),
      amountCents: 2500,
      cardBrand: 'mastercard',
      cardLast4: '4444',
    });
  const eventTypes = async (paymentId: string) =>
    (await h.store.readStream(paymentStream(paymentId))).map((event) => event.type);

  it('records the intent before calling the gateway; a failed send leaves it pending for the resumer', async () => {
    const recording = h.deps.paymentGateway;
    const seenByGateway: string[][] = [];
    h.deps.paymentGateway = {
      ...recording,
      async sendPayment(request) {
        seenByGateway.push(await eventTypes(request.paymentId));
        throw new Error('terminal offline');
      },
    } satisfies PaymentTerminalGateway;
    let payment: PaymentResource;
    try {
      payment = await h.pay(company.token, newPayment());
    } finally {
      h.deps.paymentGateway = recording;
    }
    expect(seenByGateway).toEqual([['PaymentRequested']]);
    expect(payment.status).toBe('pending');
    expect((await loadPayment(h.deps, payment.id)).state.status).toBe('pending');

    await sendPaymentToTerminal(h.deps, payment.id);
    await sendPaymentToTerminal(h.deps, payment.id);
    expect(h.gateway.sent.filter((request) => request.paymentId === payment.id)).toHaveLength(1);
    expect(await eventTypes(payment.id)).toEqual(['PaymentRequested', 'PaymentSentToTerminal']);
  });

  it('records a capture once, whatever the order and however often it is reported', async () => {
    const payment = await h.pay(company.token, newPayment());
    await report(payment.id, 'ev-cap', 'payment.captured');
    await report(payment.id, 'ev-auth', 'payment.authorized');
    const again = await report(payment.id, 'ev-cap', 'payment.captured');
    expect(again.events).toEqual([]);
    expect(await eventTypes(payment.id)).toEqual([
      'PaymentRequested',
      'PaymentSentToTerminal',
      'PaymentAuthorized',
      'PaymentCaptured',
    ]);
    const shown = await jsonOf<PaymentResource>(await h.getPayment(company.token, payment.id));
    expect(shown).toMatchObject({
      status: 'captured',
      cardBrand: 'mastercard',
      cardLast4: '4444',
      refundableCents: 2500,
    });
  });

  it('shows a decline with its reason', async () => {
    const payment = await h.pay(company.token, newPayment());
    await recordGatewayEvent(h.deps, {
      id: `ev-${payment.id}`,
      type: 'payment.declined',
      paymentId: payment.id,
      gatewayPaymentId: `gw_${payment.id}`,
      occurredAt: h.deps.clock().toISOString(),
      reason: 'expired_card',
    });
    const shown = await jsonOf<PaymentResource>(await h.getPayment(company.token, payment.id));
    expect(shown).toMatchObject({
      status: 'declined',
      declineReason: 'expired_card',
      completedAt: h.deps.clock().toISOString(),
      refundableCents: 0,
    });
  });

  it('still records a capture that arrives after a cancel (the money moved), which can be refunded', async () => {
    const payment = await h.pay(company.token, newPayment());
    expect((await send(`/api/payments/${payment.id}/cancel`)).status).toBe(200);
    await report(payment.id, `ev-late-${payment.id}`, 'payment.captured');
    const shown = await jsonOf<PaymentResource>(await h.getPayment(company.token, payment.id));
    expect(shown).toMatchObject({ status: 'captured', refundableCents: 2500 });
    expect((await refund(payment.id, 2500)).status).toBe(201);
  });

  it('expires a payment still waiting at its expiry time, not before, and clears the terminal', async () => {
    const payment = await h.pay(company.token, newPayment());
    h.advanceClock(299_000);
    expect((await expirePayment(h.deps, payment.id)).events).toEqual([]);
    h.advanceClock(1_000);
    const expired = await expirePayment(h.deps, payment.id);
    expect(expired.events.map((event) => event.type)).toEqual(['PaymentExpired']);
    expect((await expirePayment(h.deps, payment.id)).events).toEqual([]);
    expect(h.gateway.cancelled).toContainEqual({
      paymentId: payment.id,
      terminalId: company.terminalId,
    });
    const shown = await jsonOf<PaymentResource>(await h.getPayment(company.token, payment.id));
    expect(shown).toMatchObject({ status: 'expired', completedAt: payment.expiresAt });
    expect((await send(`/api/payments/${payment.id}/cancel`)).status).toBe(409);
  });
});
