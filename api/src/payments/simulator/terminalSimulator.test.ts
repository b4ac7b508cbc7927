import { createDatabase } from '@issuer/test-support';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayEvent, TerminalPaymentRequest } from '../gateway';
import { signatureHeader, verifyWebhook } from '../webhooks/webhookSignature';
import { migrateTerminalSimulator } from './simulatorTables';
import { createTerminalSimulator, type TerminalSimulatorOptions } from './terminalSimulator';

const secret = new TextEncoder().encode('simulator-test-secret-0123456789-abcdef');
let pool: pg.Pool;
let now = new Date('2026-03-01T12:00:00.000Z').getTime();
const clock = () => new Date(now);
let counter = 0;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: await createDatabase(), max: 5 });
  await migrateTerminalSimulator(pool);
});
afterAll(() => pool.end());
// Each test reads only its own webhooks.
beforeEach(() => pool.query('DELETE FROM terminal_simulator_webhooks'));

/** A receiver that checks each signature as the API would and answers `status` (default 200). */
function receiver(status: (attempt: number) => number = () => 200) {
  const received: GatewayEvent[] = [];
  let attempts = 0;
  const deliver: TerminalSimulatorOptions['deliver'] = async ({ body, headers }) => {
    attempts += 1;
    expect(verifyWebhook(secret, headers[signatureHeader], body, clock())).toEqual({
      valid: true,
    });
    const answer = status(attempts);
    if (answer === 200) received.push(JSON.parse(body) as GatewayEvent);
    return answer;
  };
  return { received, deliver, attempts: () => attempts };
}

function simulator(
  deliver: TerminalSimulatorOptions['deliver'],
  delivery?: TerminalSimulatorOptions['delivery'],
) {
  return createTerminalSimulator({ pool, clock, secret, deliver, delivery });
}

function payment(overrides: Partial<TerminalPaymentRequest> = {}): TerminalPaymentRequest {
  counter += 1;
  return {
    paymentId: `pay_sim_${counter}`,
    companyId: 'company-sim',
    terminalId: `terminal-${counter}`,
    amountCents: 1250,
    currency: 'CAD',
    expiresAt: new Date(now + 5 * 60_000).toISOString(),
    ...overrides,
  };
}

const at = (request: TerminalPaymentRequest) => ({
  companyId: request.companyId,
  terminalId: request.terminalId,
});

describe('terminal simulator', () => {
  it('given the same payment sent twice, then one row waits and both calls answer the same gateway id', async () => {
    const sim = simulator(receiver().deliver);
    const request = payment();
    const first = await sim.sendPayment(request);
    const second = await sim.sendPayment(request);
    expect(second).toEqual(first);
    expect(first.gatewayPaymentId).toMatch(/^tpi_/);
    const waiting = await sim.waitingOn('company-sim', request.terminalId);
    expect(waiting.map((w) => w.paymentId)).toEqual([request.paymentId]);
    await expect(sim.sendPayment({ ...request, amountCents: 999 })).rejects.toMatchObject({
      status: 409,
    });
  });

  it('given the default card, then it reports authorized then captured, signed, with the card', async () => {
    const { received, deliver } = receiver();
    const sim = simulator(deliver);
    const request = payment({ amountCents: 4321 });
    const { gatewayPaymentId } = await sim.sendPayment(request);
    expect(await sim.presentCard(at(request))).toEqual({ paymentId: request.paymentId });
    await sim.deliverDue();
    expect(received.map((event) => event.type)).toEqual(['payment.authorized', 'payment.captured']);
    expect(received[1]).toMatchObject({
      paymentId: request.paymentId,
      gatewayPaymentId,
      amountCents: 4321,
      cardBrand: 'visa',
      cardLast4: '4242',
      occurredAt: clock().toISOString(),
    });
    expect(new Set(received.map((event) => event.id)).size).toBe(2);
    expect(await sim.waitingOn('company-sim', request.terminalId)).toEqual([]);
    expect(await sim.presentCard(at(request))).toBeUndefined();
  });

  it.each([
    ['5555555555554444', { type: 'payment.captured', cardBrand: 'mastercard', cardLast4: '4444' }],
    ['4000000000000002', { type: 'payment.declined', reason: 'card_declined' }],
    ['4000000000009995', { type: 'payment.declined', reason: 'insufficient_funds' }],
    ['4000000000000069', { type: 'payment.declined', reason: 'expired_card' }],
    ['4000000000000127', { type: 'payment.declined', reason: 'incorrect_cvc' }],
    ['4000000000000119', { type: 'payment.declined', reason: 'processing_error' }],
  ])('given card %s, then the last webhook is %o', async (card, expected) => {
    const { received, deliver } = receiver();
    const sim = simulator(deliver);
    const request = payment();
    await sim.sendPayment(request);
    await sim.presentCard({ ...at(request), card });
    await sim.deliverDue();
    expect(received.at(-1)).toMatchObject(expected);
    expect(received).toHaveLength(expected.type === 'payment.declined' ? 1 : 2);
  });

  it('refuses a card that is not a test card, naming the field, and the payment keeps waiting', async () => {
    const sim = simulator(receiver().deliver);
    const request = payment();
    await sim.sendPayment(request);
    await expect(
      sim.presentCard({ ...at(request), card: '4111111111111111' }),
    ).rejects.toMatchObject({
      status: 400,
      fields: { card: expect.stringContaining('4242424242424242') },
    });
    expect(await sim.waitingOn('company-sim', request.terminalId)).toHaveLength(1);
  });

  it("given two payments on a terminal, then the card goes to the oldest, or to the one named; another company's terminal finds nothing", async () => {
    const sim = simulator(receiver().deliver);
    const first = payment();
    const second = payment({ terminalId: first.terminalId });
    const third = payment({ terminalId: first.terminalId });
    for (const request of [first, second, third]) await sim.sendPayment(request);
    expect(await sim.presentCard({ ...at(first), companyId: 'someone-else' })).toBeUndefined();
    expect(await sim.presentCard(at(first))).toEqual({ paymentId: first.paymentId });
    expect(await sim.presentCard({ ...at(first), paymentId: third.paymentId })).toEqual({
      paymentId: third.paymentId,
    });
    const left = await sim.waitingOn('company-sim', first.terminalId);
    expect(left.map((w) => w.paymentId)).toEqual([second.paymentId]);
  });

  it('given a cancel, then the terminal is clear and a card finds nothing; a cancel after the card changes nothing', async () => {
    const { received, deliver } = receiver();
    const sim = simulator(deliver);
    const request = payment();
    await sim.sendPayment(request);
    await sim.cancelPayment(
      at(request) && { paymentId: request.paymentId, terminalId: request.terminalId },
    );
    expect(await sim.waitingOn('company-sim', request.terminalId)).toEqual([]);
    expect(await sim.presentCard(at(request))).toBeUndefined();

    const paid = payment();
    await sim.sendPayment(paid);
    await sim.presentCard(at(paid));
    await sim.cancelPayment({ paymentId: paid.paymentId, terminalId: paid.terminalId });
    const { rows } = await pool.query(
      'SELECT status FROM terminal_simulator_payments WHERE payment_id = $1',
      [paid.paymentId],
    );
    expect(rows).toEqual([{ status: 'captured' }]);
    await sim.deliverDue();
    expect(received.map((event) => event.paymentId)).toEqual([paid.paymentId, paid.paymentId]);
  });

  it('stops waiting at expiresAt: before it a card is taken, at it nothing waits', async () => {
    const sim = simulator(receiver().deliver);
    const request = payment({ expiresAt: new Date(now + 60_000).toISOString() });
    await sim.sendPayment(request);
    now += 59_999;
    expect(await sim.waitingOn('company-sim', request.terminalId)).toHaveLength(1);
    now += 1;
    expect(await sim.waitingOn('company-sim', request.terminalId)).toEqual([]);
    expect(await sim.presentCard(at(request))).toBeUndefined();
    const { rows } = await pool.query(
      'SELECT status FROM terminal_simulator_payments WHERE payment_id = $1',
      [request.paymentId],
    );
    expect(rows).toEqual([{ status: 'expired' }]);
  });

  it('with reorder and duplicates on, delivers captured before authorized, and each twice with the same id', async () => {
    const { received, deliver } = receiver();
    const sim = simulator(deliver, { reorder: true, duplicateRate: 1 });
    const request = payment();
    await sim.sendPayment(request);
    await sim.presentCard(at(request));
    await sim.deliverDue();
    expect(received.map((event) => event.type)).toEqual([
      'payment.captured',
      'payment.authorized',
      'payment.captured',
      'payment.authorized',
    ]);
    expect(received[2]?.id).toBe(received[0]?.id);
  });

  it('with rates, reorders and duplicates only the share the random draws pick', async () => {
    const draws = [0.3, 0.6, 0.2];
    const { received, deliver } = receiver();
    const sim = simulator(deliver, {
      reorder: 0.5,
      duplicateRate: 0.5,
      random: () => draws.shift() ?? 1,
    });
    const request = payment();
    await sim.sendPayment(request);
    await sim.presentCard(at(request));
    await sim.deliverDue();
    // 0.3 < 0.5: reordered; then captured draws 0.6 (once), authorized 0.2 (twice).
    expect(received.map((event) => event.type)).toEqual([
      'payment.captured',
      'payment.authorized',
      'payment.authorized',
    ]);
  });

  it('retries a webhook the receiver refused, with doubling backoff, until a 2xx; then never again', async () => {
    const { received, deliver, attempts } = receiver((attempt) => (attempt <= 2 ? 503 : 200));
    const sim = simulator(deliver, { retryBaseMs: 60_000, retryMaxMs: 600_000 });
    const request = payment();
    await sim.sendPayment(request);
    await sim.presentCard({ ...at(request), card: '4000000000000002' });
    const outbox = async () =>
      (
        await pool.query<{ wait_s: number; attempts: number; delivered: boolean; error: string }>(
          `SELECT round(extract(epoch FROM next_attempt_at - now()))::int AS wait_s, attempts,
                  delivered_at IS NOT NULL AS delivered, last_error AS error
             FROM terminal_simulator_webhooks WHERE payment_id = $1`,
          [request.paymentId],
        )
      ).rows;
    // Time passing, without waiting for it: the retry is due now.
    const due = () =>
      pool.query(
        'UPDATE terminal_simulator_webhooks SET next_attempt_at = now() WHERE payment_id = $1',
        [request.paymentId],
      );
    expect(await sim.deliverDue()).toBe(0);
    expect(await outbox()).toEqual([
      { wait_s: 60, attempts: 1, delivered: false, error: 'HTTP 503' },
    ]);
    expect(await sim.deliverDue()).toBe(0); // not due yet: the backoff holds it
    expect(attempts()).toBe(1);
    await due();
    expect(await sim.deliverDue()).toBe(0);
    expect(await outbox()).toMatchObject([{ wait_s: 120, attempts: 2 }]);
    await due();
    expect(await sim.deliverDue()).toBe(1);
    expect(await outbox()).toMatchObject([{ attempts: 3, delivered: true, error: null }]);
    expect(received).toHaveLength(1);
    await due();
    expect(await sim.deliverDue()).toBe(0);
    expect(attempts()).toBe(3);
  });

  it('gives up after maxAttempts (the row stays, never due again)', async () => {
    const { deliver, attempts } = receiver(() => 500);
    const sim = simulator(deliver, { retryBaseMs: 1, retryMaxMs: 1, maxAttempts: 2 });
    const request = payment();
    await sim.sendPayment(request);
    await sim.presentCard({ ...at(request), card: '4000000000000002' });
    await sim.deliverDue();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await sim.deliverDue();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await sim.deliverDue()).toBe(0);
    expect(attempts()).toBe(2);
    const { rows } = await pool.query(
      `SELECT next_attempt_at = 'infinity' AS given_up FROM terminal_simulator_webhooks
        WHERE payment_id = $1`,
      [request.paymentId],
    );
    expect(rows).toEqual([{ given_up: true }]);
  });

  it('started, delivers on its own after a card (a thrown transport error is retried too)', async () => {
    let failures = 1;
    const { received, deliver } = receiver();
    const sim = simulator(
      async (request) => {
        if (failures-- > 0) throw new Error('connection refused');
        return deliver?.(request) ?? 500;
      },
      { retryBaseMs: 10, pollMs: 20 },
    );
    sim.start();
    try {
      const request = payment();
      await sim.sendPayment(request);
      await sim.presentCard(at(request));
      const deadline = Date.now() + 5_000;
      while (received.length < 2 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // The failed first attempt went out again after the second webhook: order is not promised.
      expect(received.map((event) => event.type).sort()).toEqual([
        'payment.authorized',
        'payment.captured',
      ]);
    } finally {
      await sim.stop();
    }
  });

  it('refunds a captured payment by refund id, never beyond what was captured', async () => {
    const sim = simulator(receiver().deliver);
    const request = payment({ amountCents: 1000 });
    await sim.sendPayment(request);
    const refund = (refundId: string, amountCents: number) =>
      sim.refundPayment({ paymentId: request.paymentId, refundId, amountCents, currency: 'CAD' });
    await expect(refund('re_0', 100)).rejects.toMatchObject({ status: 409 });
    await sim.presentCard(at(request));
    await refund('re_1', 600);
    await refund('re_1', 600);
    await expect(refund('re_2', 401)).rejects.toMatchObject({ status: 409 });
    await refund('re_3', 400);
    const { rows } = await pool.query(
      'SELECT sum(amount_cents)::int AS refunded FROM terminal_simulator_refunds WHERE payment_id = $1',
      [request.paymentId],
    );
    expect(rows).toEqual([{ refunded: 1000 }]);
  });
});
