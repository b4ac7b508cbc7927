import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company } from '../customers/testing/customersHarness';
import { expireEtransfer } from '../etransfers/etransferCommands';
import {
  type EtransferHarness,
  startEtransferHarness,
} from '../etransfers/testing/etransferHarness';
import { errorOf, jsonOf } from '../http/testing/responses';
import { createOrderProcessor, migrateOrderProcessor, type OrderProcessor } from './orderProcessor';
import type { OrderResource } from './queries';
import { openRound, readyInvestor } from './testing/ordersHarness';
import { SimulatedTokenLedger } from './tokenLedger';

type Json = Record<string, unknown>;
type Issuer = Company & { roundId: string; closesAt: string };

let h: EtransferHarness;
let processor: OrderProcessor;
const ledger = new SimulatedTokenLedger({ delayMs: 0 });

beforeAll(async () => {
  h = await startEtransferHarness();
  await migrateOrderProcessor(h.pool);
  processor = createOrderProcessor({ ...h.deps, logger: pino({ level: 'silent' }) }, ledger);
});
afterAll(async () => {
  await h?.close();
});

const call = (company: Company, method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: company.token, body });

async function ok<T = Json>(res: Response, status = 201) {
  if (res.status !== status) throw new Error(`${res.status} ${await res.text()}`);
  return jsonOf<T>(res);
}

/** An issuer with a share class and an open round at $2.50 closing in `closesInDays`. */
async function issuerWithRound(closesInDays = 60): Promise<Issuer> {
  const company = await h.issuerCompany();
  const closesAt = new Date(h.deps.clock().getTime() + closesInDays * 86_400_000).toISOString();
  const { roundId } = await openRound(h, company, { tokenPriceCents: 250, closesAt });
  return { ...company, roundId, closesAt };
}

const investor = (company: Company) => readyInvestor(h, company);

const order = (issuer: Issuer, body: Json) =>
  call(issuer, 'POST', '/api/token-orders', {
    roundId: issuer.roundId,
    payment: { method: 'etransfer' },
    ...body,
  });

/** Delivers the provider's webhooks, then runs the order process until the order reaches `status`. */
async function settle(
  issuer: Issuer,
  orderId: string,
  status: string,
  until: (order: OrderResource) => boolean = () => true,
) {
  let last: OrderResource | undefined;
  for (let i = 0; i < 50; i++) {
    await h.settle();
    await processor.runOnce();
    last = await ok<OrderResource>(await call(issuer, 'GET', `/api/token-orders/${orderId}`), 200);
    if (last.status === status && until(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(last?.status).toBe(status);
  throw new Error('unreachable');
}

/** The round once the order process and the read models caught up. */
const released = (issuer: Issuer) =>
  expect.poll(async () => {
    await processor.runOnce();
    return round(issuer);
  });

const round = async (issuer: Issuer) =>
  ok(await call(issuer, 'GET', `/api/funding-rounds/${issuer.roundId}`), 200);

describe('an order paid by e-transfer', () => {
  it('requests the money, and the deposit completes it: cap table and investor history', async () => {
    const issuer = await issuerWithRound();
    const customerId = await investor(issuer);
    const placed = await ok<OrderResource>(await order(issuer, { customerId, tokens: 40 }));
    expect(placed).toMatchObject({
      status: 'awaiting_payment',
      paymentMethod: 'etransfer',
      etransferId: expect.stringMatching(/^et_/),
      paymentId: null,
      terminalId: null,
      amountCents: 10_000,
    });
    const etransferId = placed.etransferId ?? '';
    const request = await h.etransfer(issuer.token, etransferId);
    expect(request).toMatchObject({
      kind: 'request',
      status: 'sent',
      customerId,
      amountCents: 10_000,
      reference: placed.id,
      message: expect.stringContaining(`40 tokens of Seed`),
      // The message is what the customer reads; purpose lets each reader's language name it.
      purpose: {
        kind: 'token_order',
        orderId: placed.id,
        roundName: expect.stringMatching(/^Seed/),
        tokens: 40,
      },
    });
    // The default expiry (30 days) comes before the round closes (60 days).
    const ahead = new Date(String(request.expiresAt)).getTime() - h.deps.clock().getTime();
    expect(Math.round(ahead / 86_400_000)).toBe(30);
    const events = await h.store.readStream(`ETransfer-${etransferId}`);
    expect(events[0]?.data).toMatchObject({ orderId: placed.id });
    expect(await round(issuer)).toMatchObject({ tokensReserved: 40, tokensPurchased: 0 });

    await ok(await call(issuer, 'POST', `/api/etransfers/${etransferId}/simulator/deposit`), 202);
    const done = await settle(issuer, placed.id, 'complete');
    expect(done.history.map((step) => step.status)).toEqual([
      'created',
      'awaiting_payment',
      'funds_received',
      'distributing',
      'tokens_distributed',
      'complete',
    ]);
    expect(await round(issuer)).toMatchObject({ tokensReserved: 0, tokensPurchased: 40 });
    await expect
      .poll(async () => ok<Json[]>(await call(issuer, 'GET', '/api/transactions'), 200))
      .toContainEqual(
        expect.objectContaining({
          kind: 'etransfer',
          paymentId: etransferId,
          purpose: expect.objectContaining({ kind: 'token_order', orderId: placed.id }),
        }),
      );

    // The read models catch up with the process's last steps.
    await expect
      .poll(async () => {
        const table = await ok<{ holders: Json[] }>(
          await call(issuer, 'GET', '/api/cap-table'),
          200,
        );
        return table.holders;
      })
      .toContainEqual(expect.objectContaining({ customerId, shares: 40 }));
    await expect
      .poll(async () => {
        const history = await ok<{ entries: Json[] }>(
          await call(issuer, 'GET', `/api/customers/${customerId}/history`),
          200,
        );
        return history.entries.map((entry) => entry.type);
      })
      .toContain('SharesIssued');
    const history = await ok<{ entries: Json[] }>(
      await call(issuer, 'GET', `/api/customers/${customerId}/history`),
      200,
    );
    const moves = history.entries
      .filter((entry) => entry.type === 'InvestorStatusChanged')
      .map(
        (entry) =>
          (entry.changes as { field: string; after: unknown }[]).find(
            (change) => change.field === 'investorStatus',
          )?.after,
      );
    expect(moves).toEqual(['Funds Received', 'Distribute Tokens', 'Complete']);
    const legacy = await ok<Json[]>(await call(issuer, 'GET', '/api/contacts-app/nftorders'), 200);
    expect(legacy[0]).toMatchObject({
      payment: expect.objectContaining({ transactionId: etransferId, method: 'etransfer' }),
    });
  });

  it('expires when the round closes, if that comes first', async () => {
    const issuer = await issuerWithRound(10);
    const customerId = await investor(issuer);
    const placed = await ok<OrderResource>(await order(issuer, { customerId, tokens: 1 }));
    const request = await h.etransfer(issuer.token, placed.etransferId ?? '');
    expect(request.expiresAt).toBe(issuer.closesAt);
  });

  it('a declined request fails the order and releases its tokens', async () => {
    const issuer = await issuerWithRound();
    const customerId = await investor(issuer);
    const placed = await ok<OrderResource>(await order(issuer, { customerId, tokens: 7 }));
    await ok(
      await call(issuer, 'POST', `/api/etransfers/${placed.etransferId}/simulator/decline`),
      202,
    );
    const failed = await settle(issuer, placed.id, 'payment_failed');
    expect(failed.failureReason).toBe('declined');
    await released(issuer).toMatchObject({ tokensReserved: 0, tokensPurchased: 0 });
  });

  it('an expired request fails the order and releases its tokens', async () => {
    const issuer = await issuerWithRound(10);
    const customerId = await investor(issuer);
    const placed = await ok<OrderResource>(await order(issuer, { customerId, tokens: 4 }));
    // As the e-transfer timer does once the round closed (and the request with it).
    const later = { ...h.deps, clock: () => new Date(Date.parse(issuer.closesAt) + 1000) };
    await expireEtransfer(later, placed.etransferId ?? '');
    const failed = await settle(issuer, placed.id, 'payment_failed');
    expect(failed.failureReason).toBe('expired');
    await released(issuer).toMatchObject({ tokensReserved: 0 });
  });

  it('a refund after the funds arrived pays the money back by e-transfer payout', async () => {
    const issuer = await issuerWithRound();
    const customerId = await investor(issuer);
    const placed = await ok<OrderResource>(await order(issuer, { customerId, tokens: 10 }));
    ledger.failNext(3);
    await ok(
      await call(issuer, 'POST', `/api/etransfers/${placed.etransferId}/simulator/deposit`),
      202,
    );
    await settle(issuer, placed.id, 'distribution_failed', (o) => o.held);
    expect(await h.balance(issuer.token)).toBe(2500);
    const refund = (times: number) =>
      Promise.all(
        Array.from({ length: times }, () =>
          call(issuer, 'POST', `/api/token-orders/${placed.id}/refund`, { reason: 'Changed mind' }),
        ),
      );
    const answers = await refund(2);
    expect(answers.map((res) => res.status)).toEqual([200, 200]);
    const refunded = await settle(issuer, placed.id, 'refunded');
    const payout = await h.etransfer(issuer.token, refunded.refundId ?? '');
    expect(payout).toMatchObject({ kind: 'payout', customerId, amountCents: 2500 });
    // A repeated refund pays nothing twice.
    expect(await h.balance(issuer.token)).toBe(0);
    await released(issuer).toMatchObject({ tokensReserved: 0, tokensPurchased: 0 });
  });

  it('cancelling the order cancels its request', async () => {
    const issuer = await issuerWithRound();
    const customerId = await investor(issuer);
    const placed = await ok<OrderResource>(await order(issuer, { customerId, tokens: 3 }));
    const cancelled = await ok<OrderResource>(
      await call(issuer, 'POST', `/api/token-orders/${placed.id}/cancel`, {}),
      200,
    );
    expect(cancelled.status).toBe('cancelled');
    expect((await h.etransfer(issuer.token, placed.etransferId ?? '')).status).toBe('cancelled');
    await settle(issuer, placed.id, 'cancelled');
    await released(issuer).toMatchObject({ tokensReserved: 0 });
  });

  it('answers 400 naming the field for an unknown method, nothing reserved', async () => {
    const issuer = await issuerWithRound();
    const customerId = await investor(issuer);
    const unknown = await order(issuer, { customerId, tokens: 1, payment: { method: 'cash' } });
    expect(unknown.status).toBe(400);
    expect((await errorOf(unknown)).fields).toHaveProperty(['payment.method']);
    const extra = await order(issuer, {
      customerId,
      tokens: 1,
      payment: { method: 'etransfer', terminalId: 'trm_1' },
    });
    expect(extra.status).toBe(400);
    expect(await round(issuer)).toMatchObject({ tokensReserved: 0 });
  });
});
