import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RefundRefused } from '../gateway';
import { loadPayment } from '../paymentCommands';
import {
  type SimulatorHarness,
  startSimulatorHarness,
} from '../simulator/testing/simulatorHarness';
import { ledgerCheck } from '../testing/ledgerCheck';

let h: SimulatorHarness;
let company: Awaited<ReturnType<SimulatorHarness['companyWithTerminal']>>;
beforeAll(async () => {
  h = await startSimulatorHarness();
});
afterAll(() => h.close());
// After every test: each company's ledger balances and equals captured − refunded.
const ledger = ledgerCheck();
afterEach(() => ledger.verify(h));

const pay = (amountCents = 2000) =>
  h.pay(company.token, { terminalId: company.terminalId, amountCents, currency: 'CAD' });
const presentCard = () =>
  h.call('POST', `/api/terminals/${company.terminalId}/simulator/present-card`, {
    token: company.token,
    body: {},
  });
async function simulatorRows(paymentId: string) {
  const { rows } = await h.pool.query<{ gateway_payment_id: string; status: string }>(
    'SELECT gateway_payment_id, status FROM terminal_simulator_payments WHERE payment_id = $1',
    [paymentId],
  );
  return rows;
}
async function waitForReadModels() {
  const { rows } = await h.pool.query<{ head: string | null }>(
    'SELECT max(position)::text AS head FROM es_events',
  );
  if (rows[0]?.head)
    expect(await h.deps.readModels.waitFor(BigInt(rows[0].head), 10_000)).toBe(true);
}

describe('the expirer', () => {
  it('expires a payment still waiting at expiresAt (not a millisecond before), and clears the terminal', async () => {
    company = await h.companyWithTerminal();
    const payment = await pay();
    expect(Date.parse(payment.expiresAt) - Date.parse(payment.requestedAt)).toBe(300_000);
    h.advanceClock(299_999);
    expect((await h.scheduler.runOnce()).expired).toEqual([]);
    h.advanceClock(1);
    expect((await h.scheduler.runOnce()).expired).toEqual([payment.id]);
    await waitForReadModels();
    expect(await h.payment(company.token, payment.id)).toMatchObject({
      status: 'expired',
      completedAt: h.deps.clock().toISOString(),
    });
    expect(await simulatorRows(payment.id)).toMatchObject([{ status: 'cancelled' }]);
    expect((await presentCard()).status).toBe(409);
    expect((await h.scheduler.runOnce()).expired).toEqual([]);
  });

  it('leaves a payment decided before its expiry alone', async () => {
    company = await h.companyWithTerminal();
    const payment = await pay();
    expect((await presentCard()).status).toBe(202);
    await h.deliver();
    await waitForReadModels();
    h.advanceClock(600_000);
    expect((await h.scheduler.runOnce()).expired).toEqual([]);
    expect((await h.payment(company.token, payment.id)).status).toBe('captured');
    expect((await h.balancedLedger(company.companyId)).availableCents).toBe(2000n);
  });
});

describe('the resumer', () => {
  it('sends a payment whose send failed, once the request has had its time; the card is then charged once', async () => {
    company = await h.companyWithTerminal();
    h.failNextSends(1);
    const payment = await pay(4400);
    expect(payment.status).toBe('pending');
    expect(await simulatorRows(payment.id)).toEqual([]);
    expect((await h.scheduler.runOnce()).resumed).toEqual([]); // a request may still be sending it
    h.advanceClock(5_000);
    expect((await h.scheduler.runOnce()).resumed).toEqual([payment.id]);
    const rows = await simulatorRows(payment.id);
    expect(rows).toMatchObject([{ status: 'waiting' }]);
    const { state } = await loadPayment(h.deps, payment.id);
    expect(state).toMatchObject({ status: 'sent', gatewayPaymentId: rows[0]?.gateway_payment_id });
    expect((await h.scheduler.runOnce()).resumed).toEqual([]);
    expect((await presentCard()).status).toBe(202);
    expect((await presentCard()).status).toBe(409);
    await h.deliver();
    expect(await h.payment(company.token, payment.id)).toMatchObject({ status: 'captured' });
    expect(await simulatorRows(payment.id)).toMatchObject([{ status: 'captured' }]);
    expect((await h.balancedLedger(company.companyId)).availableCents).toBe(4400n);
  });

  it('given the processor already had the payment (the record of the send was lost), then the resend finds the same one', async () => {
    company = await h.companyWithTerminal();
    h.failNextSends(1);
    const payment = await pay(5100);
    const { gatewayPaymentId } = await h.simulator.sendPayment({
      paymentId: payment.id,
      companyId: company.companyId,
      terminalId: company.terminalId,
      amountCents: 5100,
      currency: 'CAD',
      expiresAt: payment.expiresAt,
    });
    h.advanceClock(5_000);
    expect((await h.scheduler.runOnce()).resumed).toEqual([payment.id]);
    expect(await simulatorRows(payment.id)).toEqual([
      { gateway_payment_id: gatewayPaymentId, status: 'waiting' },
    ]);
    expect((await loadPayment(h.deps, payment.id)).state).toMatchObject({ gatewayPaymentId });
  });
});

describe('the refund settler', () => {
  async function capturedPayment(amountCents: number) {
    company = await h.companyWithTerminal();
    const payment = await pay(amountCents);
    expect((await presentCard()).status).toBe(202);
    await h.deliver();
    return payment;
  }
  const refund = (paymentId: string, amountCents: number) =>
    h.call('POST', `/api/payments/${paymentId}/refunds`, {
      token: company.token,
      body: { amountCents, reason: 'Damaged' },
    });
  async function simulatorRefunds(paymentId: string) {
    const { rows } = await h.pool.query<{ refund_id: string }>(
      'SELECT refund_id FROM terminal_simulator_refunds WHERE payment_id = $1',
      [paymentId],
    );
    return rows.map((row) => row.refund_id);
  }

  it('given the processor unreachable at refund time (no Idempotency-Key), then the refund stays pending and the scheduler settles it once', async () => {
    const payment = await capturedPayment(3000);
    h.failNextRefunds(1);
    const failed = await refund(payment.id, 1200);
    expect(failed.status).toBe(503);
    await waitForReadModels();
    const pending = await h.payment(company.token, payment.id);
    expect(pending).toMatchObject({ refundedCents: 1200, refunds: [{ status: 'pending' }] });
    const refundId = pending.refunds[0]?.id;
    expect(await simulatorRefunds(payment.id)).toEqual([]);

    expect((await h.scheduler.runOnce()).refunds).toEqual([]); // the request may still be settling it
    h.advanceClock(5_000);
    expect((await h.scheduler.runOnce()).refunds).toEqual([refundId]);
    expect(await simulatorRefunds(payment.id)).toEqual([refundId]);
    await waitForReadModels();
    expect(await h.payment(company.token, payment.id)).toMatchObject({
      refundedCents: 1200,
      refunds: [{ id: refundId, status: 'succeeded' }],
    });
    expect((await h.scheduler.runOnce()).refunds).toEqual([]);
  });

  it('given the processor refuses the pending refund for good, then the scheduler records it failed and the balance gets it back', async () => {
    const payment = await capturedPayment(3100);
    h.failNextRefunds(1);
    expect((await refund(payment.id, 3100)).status).toBe(503);
    await waitForReadModels();
    const refused = h.deps.paymentGateway;
    h.deps.paymentGateway = {
      ...refused,
      async refundPayment() {
        throw new RefundRefused('expired_or_canceled_card');
      },
    };
    try {
      h.advanceClock(5_000);
      expect((await h.scheduler.runOnce()).refunds).toHaveLength(1);
    } finally {
      h.deps.paymentGateway = refused;
    }
    await waitForReadModels();
    expect(await h.payment(company.token, payment.id)).toMatchObject({
      status: 'captured',
      refundedCents: 0,
      refunds: [{ status: 'failed', failureReason: 'expired_or_canceled_card' }],
    });
  });
});
