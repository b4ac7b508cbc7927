import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, jsonOf } from '../../http/testing/responses';
import type { GatewayEvent } from '../gateway';
import { paymentStream } from '../paymentCommands';
import {
  type SimulatorHarness,
  startSimulatorHarness,
} from '../simulator/testing/simulatorHarness';
import { ledgerCheck } from '../testing/ledgerCheck';
import { terminalWebhookPath } from './webhookApi';
import { signatureHeader, signWebhook, webhookSecretOf } from './webhookSignature';

let h: SimulatorHarness;
let company: Awaited<ReturnType<SimulatorHarness['companyWithTerminal']>>;
beforeAll(async () => {
  h = await startSimulatorHarness();
  company = await h.companyWithTerminal();
});
afterAll(() => h.close());
// After every test: each company's ledger balances and equals captured − refunded.
const ledger = ledgerCheck();
afterEach(() => ledger.verify(h));

const secret = () => webhookSecretOf(h.deps.config);
const post = (body: string, signature?: string) =>
  h.app.request(`/api${terminalWebhookPath}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(signature === undefined ? {} : { [signatureHeader]: signature }),
    },
    body,
  });
const signed = (event: unknown, at = h.deps.clock()) => {
  const body = JSON.stringify(event);
  return post(body, signWebhook(secret(), body, at));
};

async function sentPayment(amountCents = 1800) {
  const payment = await h.pay(company.token, {
    terminalId: company.terminalId,
    amountCents,
    currency: 'CAD',
  });
  const { rows } = await h.pool.query<{ gateway_payment_id: string }>(
    'SELECT gateway_payment_id FROM terminal_simulator_payments WHERE payment_id = $1',
    [payment.id],
  );
  return { ...payment, gatewayPaymentId: rows[0]?.gateway_payment_id ?? '' };
}

let eventCounter = 0;
function captured(payment: { id: string; gatewayPaymentId: string; amountCents: number }) {
  eventCounter += 1;
  return {
    id: `tevt_test_${eventCounter}`,
    type: 'payment.captured',
    paymentId: payment.id,
    gatewayPaymentId: payment.gatewayPaymentId,
    occurredAt: h.deps.clock().toISOString(),
    amountCents: payment.amountCents,
    cardBrand: 'visa',
    cardLast4: '4242',
  } satisfies GatewayEvent;
}

async function eventTypes(paymentId: string): Promise<string[]> {
  return (await h.store.readStream(paymentStream(paymentId))).map((event) => event.type);
}

describe('POST /api/payments/webhooks/terminal', () => {
  it('given a correctly signed capture, then 200 {received:true} and the payment is captured', async () => {
    const payment = await sentPayment();
    const res = await signed(captured(payment));
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toEqual({ received: true });
    expect((await h.payment(company.token, payment.id)).status).toBe('captured');
  });

  it.each([
    ['no signature', undefined],
    ['a malformed signature', 't=now,v1=xyz'],
    ['a signature by another secret', 'other'],
    ['a signature of another body', 'tampered'],
  ])('given %s, then 401 in the error shape and the payment stays pending', async (_, kind) => {
    const payment = await sentPayment();
    const body = JSON.stringify(captured(payment));
    const now = h.deps.clock();
    const signature =
      kind === 'other'
        ? signWebhook(new TextEncoder().encode('not-the-secret-0123456789-abcdefghij'), body, now)
        : kind === 'tampered'
          ? signWebhook(secret(), body.replace('4242', '0000'), now)
          : kind;
    const res = await post(body, signature);
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatchObject({ code: 'invalid_signature' });
    expect((await h.payment(company.token, payment.id)).status).toBe('pending');
    expect(await eventTypes(payment.id)).toEqual(['PaymentRequested', 'PaymentSentToTerminal']);
  });

  it('given a delivery signed more than 5 minutes ago (a replay), then 401; within 5 minutes, 200', async () => {
    const payment = await sentPayment();
    const event = captured(payment);
    const body = JSON.stringify(event);
    const signature = signWebhook(secret(), body, h.deps.clock());
    h.advanceClock(5 * 60_000 + 1_000);
    const replay = await post(body, signature);
    expect(replay.status).toBe(401);
    expect((await errorOf(replay)).message).toMatch(/5 minutes/);
    expect((await h.payment(company.token, payment.id)).status).toBe('pending');
    h.advanceClock(-60_000);
    expect((await post(body, signature)).status).toBe(200);
  });

  it('given the same event twice, then both answer 200 and it is recorded once (the ledger moves once)', async () => {
    const before = (await h.balancedLedger(company.companyId)).availableCents;
    const payment = await sentPayment();
    const event = captured(payment);
    expect((await signed(event)).status).toBe(200);
    expect((await signed(event)).status).toBe(200);
    // A capture with no authorization before it records both.
    expect(await eventTypes(payment.id)).toEqual([
      'PaymentRequested',
      'PaymentSentToTerminal',
      'PaymentAuthorized',
      'PaymentCaptured',
    ]);
    const after = await h.balancedLedger(company.companyId);
    expect(after.availableCents - before).toBe(1800n);
  });

  it('given a signed body that is not a gateway event, then 400 naming the field, nothing recorded', async () => {
    const payment = await sentPayment();
    const res = await signed({ ...captured(payment), amountCents: '18.00' });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields).toHaveProperty('amountCents');
    const notJson = 'not json';
    expect((await post(notJson, signWebhook(secret(), notJson, h.deps.clock()))).status).toBe(400);
    expect(await eventTypes(payment.id)).toEqual(['PaymentRequested', 'PaymentSentToTerminal']);
  });

  it('given an event for a payment that does not exist, then 404', async () => {
    const payment = await sentPayment();
    const res = await signed({
      ...captured(payment),
      paymentId: 'pay_00000000-0000-4000-8000-000000000000',
    });
    expect(res.status).toBe(404);
  });
});

describe('the simulator delivering to the route', () => {
  it('given duplicates and captured before authorized, then the payment ends captured once, authorized once', async () => {
    const misbehaving = await startSimulatorHarness({ duplicateRate: 1, reorder: true });
    try {
      const owner = await misbehaving.companyWithTerminal();
      const payment = await misbehaving.pay(owner.token, {
        terminalId: owner.terminalId,
        amountCents: 990,
        currency: 'CAD',
      });
      const present = await misbehaving.call(
        'POST',
        `/api/terminals/${owner.terminalId}/simulator/present-card`,
        { token: owner.token, body: {} },
      );
      expect(present.status).toBe(202);
      expect(await misbehaving.deliver()).toBe(4);
      expect(misbehaving.webhookStatuses).toEqual([200, 200, 200, 200]);
      const { rows } = await misbehaving.pool.query<{ body: string }>(
        'SELECT body FROM terminal_simulator_webhooks WHERE payment_id = $1 ORDER BY id',
        [payment.id],
      );
      expect(rows.map((row) => (JSON.parse(row.body) as GatewayEvent).type)).toEqual([
        'payment.captured',
        'payment.authorized',
        'payment.captured',
        'payment.authorized',
      ]);
      const types = (await misbehaving.store.readStream(paymentStream(payment.id))).map(
        (event) => event.type,
      );
      expect(types.filter((type) => type === 'PaymentCaptured')).toHaveLength(1);
      expect(types.filter((type) => type === 'PaymentAuthorized')).toHaveLength(1);
      expect(await misbehaving.payment(owner.token, payment.id)).toMatchObject({
        status: 'captured',
        amountCents: 990,
        cardBrand: 'visa',
        cardLast4: '4242',
        refundableCents: 990,
      });
      expect(await misbehaving.balancedLedger(owner.companyId)).toMatchObject({
        availableCents: 990n,
        capturedCents: 990n,
      });
    } finally {
      await misbehaving.close();
    }
  });

  it('given the API answering 503 twice, then the simulator retries and the payment is captured', async () => {
    const payment = await sentPayment(2100);
    h.failNextDeliveries(2);
    const present = await h.call(
      'POST',
      `/api/terminals/${company.terminalId}/simulator/present-card`,
      { token: company.token, body: { card: '5555555555554444', paymentId: payment.id } },
    );
    expect(present.status).toBe(202);
    const before = h.webhookStatuses.length;
    await h.deliver();
    expect(h.webhookStatuses.slice(before)).toEqual([503, 503, 200, 200]);
    expect(await h.payment(company.token, payment.id)).toMatchObject({
      status: 'captured',
      cardBrand: 'mastercard',
    });
    await h.balancedLedger(company.companyId);
  });
});
