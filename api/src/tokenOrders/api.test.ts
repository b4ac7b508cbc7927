import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, jsonOf } from '../http/testing/responses';
import { recordGatewayEvent } from '../payments/paymentCommands';
import type { OrderResource } from './queries';
import { type Json, type OrdersHarness, startOrdersHarness, wallet } from './testing/ordersHarness';

let h: OrdersHarness;

beforeAll(async () => {
  h = await startOrdersHarness();
});
afterAll(async () => {
  await h?.close();
});

const get = <T = Json>(token: string, path: string) => h.get<T>(token, path);

async function placed(res: Response) {
  if (res.status !== 201) throw new Error(`${res.status} ${await res.text()}`);
  return jsonOf<OrderResource>(res);
}

async function decline(paymentId: string) {
  await recordGatewayEvent(h.deps, {
    id: randomUUID(),
    type: 'payment.declined',
    paymentId,
    gatewayPaymentId: `gw_${paymentId}`,
    occurredAt: h.deps.clock().toISOString(),
    reason: 'card_declined',
  } as never);
}

describe('an order from round to complete', () => {
  it('is paid on the terminal, distributed, issued in the cap table, and moves the investor', async () => {
    const issuer = await h.issuerWithRound();
    const customerId = await h.investor(issuer);
    const before = new Date(h.deps.clock().getTime() - 1000).toISOString();

    const order = await placed(await h.order(issuer, { customerId, tokens: 40 }));
    expect(order).toMatchObject({
      id: expect.stringMatching(/^ord_/),
      status: 'awaiting_payment',
      paymentId: expect.stringMatching(/^pay_/),
      tokens: 40,
      amountCents: 4000,
      walletAddress: wallet,
      roundId: issuer.roundId,
    });
    // The payment waits on the terminal like any other.
    expect(h.gateway.sent.map((sent) => sent.paymentId)).toContain(order.paymentId ?? '');
    const reserved = await get(issuer.token, `/api/funding-rounds/${issuer.roundId}`);
    expect(reserved).toMatchObject({
      tokensReserved: 40,
      tokensPurchased: 0,
      tokensAvailable: 960,
    });

    // The payment says what it pays, so each reader's language can name it.
    const purpose = {
      kind: 'token_order',
      orderId: order.id,
      roundName: expect.stringMatching(/^Seed /),
      tokens: 40,
    };
    expect(await get(issuer.token, `/api/payments/${order.paymentId}`)).toMatchObject({
      description: expect.stringMatching(/^40 tokens of Seed /),
      purpose,
    });

    await h.capture(order.paymentId ?? '');
    await expect
      .poll(() => get<Json[]>(issuer.token, '/api/transactions'))
      .toContainEqual(expect.objectContaining({ paymentId: order.paymentId, purpose }));
    h.advanceClock(1000);
    const done = await h.settle(issuer, order.id, 'complete');
    expect(done).toMatchObject({
      transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      blockNumber: expect.any(Number),
      issuanceId: expect.stringMatching(/^iss_/),
      distributionAttempts: 1,
    });
    expect(done.history.map((step) => step.status)).toEqual([
      'created',
      'awaiting_payment',
      'funds_received',
      'distributing',
      'tokens_distributed',
      'complete',
    ]);

    await expect
      .poll(() => get(issuer.token, `/api/funding-rounds/${issuer.roundId}`))
      .toMatchObject({
        tokensReserved: 0,
        tokensPurchased: 40,
        amountRaisedCents: 4000,
        percentageComplete: 4,
      });

    const historyOf = () =>
      get<{ entries: Json[] }>(issuer.token, `/api/customers/${customerId}/history`);
    const statusOf = (entry: Json) =>
      (entry.changes as { field: string; after: unknown }[]).find(
        (change) => change.field === 'investorStatus',
      )?.after;
    // The issuance joins the history from the cap table's read model, a moment after the order.
    await expect
      .poll(async () => (await historyOf()).entries)
      .toContainEqual(
        expect.objectContaining({ type: 'SharesIssued', reason: `Token order ${order.id}` }),
      );
    const history = await historyOf();
    const moves = history.entries.filter((entry) => entry.type === 'InvestorStatusChanged');
    expect(moves.map(statusOf)).toEqual(['Funds Received', 'Distribute Tokens', 'Complete']);
    for (const entry of moves) {
      // The system acted (no user), the order is the reason.
      expect(entry).toMatchObject({ actor: { id: null }, reason: `Token order ${order.id}` });
    }
    const events = await h.store.readStream(`Customer-${customerId}`);
    const changed = events.filter((event) => event.type === 'InvestorStatusChanged');
    expect(changed.map((event) => (event.data as Json).changedBy)).toEqual([
      'system',
      'system',
      'system',
    ]);

    const table = await get<{ holders: Json[] }>(issuer.token, '/api/cap-table');
    expect(table.holders).toContainEqual(
      expect.objectContaining({ customerId, shares: 40, percentOwned: 100 }),
    );
    const earlier = await get<{ holders: Json[] }>(
      issuer.token,
      `/api/cap-table?asOf=${encodeURIComponent(before)}`,
    );
    expect(earlier.holders).toEqual([]);

    const list = await h.call('GET', '/api/token-orders', { token: issuer.token });
    expect(list.headers.get('Content-Range')).toBe('token-orders 0-0/1');
    const legacy = await get<Json[]>(issuer.token, '/api/contacts-app/nftorders');
    expect(legacy[0]).toMatchObject({
      id: order.id,
      total: 40,
      products: [expect.objectContaining({ id: issuer.roundId, quantity: 40, price: 1 })],
      payment: expect.objectContaining({ transactionId: order.paymentId }),
    });
  });
});

describe('what an order needs', () => {
  it('answers 409 saying what is missing: a wallet address, KYC', async () => {
    const issuer = await h.issuerWithRound();
    const noWallet = await h.investor(issuer, { walletAddress: '' });
    const res = await h.order(issuer, { customerId: noWallet, tokens: 5 });
    expect(res.status).toBe(409);
    const error = await errorOf(res);
    expect(error.message).toContain('no wallet address');
    expect(error.fields).toHaveProperty('walletAddress');

    const notKyc = await h.investor(issuer, { investorStatus: 'KYC Under Review' });
    const both = await errorOf(await h.order(issuer, { customerId: notKyc, tokens: 5 }));
    expect(both.message).toContain('KYC Under Review');
    expect(both.message).toContain('at least KYC Complete');
    const round = await get(issuer.token, `/api/funding-rounds/${issuer.roundId}`);
    expect(round.tokensReserved).toBe(0);
  });

  it('answers 400 naming the field, and 404 for another company’s round or customer', async () => {
    const issuer = await h.issuerWithRound();
    const other = await h.issuerWithRound();
    const customerId = await h.investor(issuer);
    const bad = await h.order(issuer, { customerId, tokens: 0 });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).fields).toHaveProperty('tokens');
    const noPayment = await h.call('POST', '/api/token-orders', {
      token: issuer.token,
      body: { roundId: issuer.roundId, customerId, tokens: 1 },
    });
    expect((await errorOf(noPayment)).fields).toHaveProperty('payment');
    expect((await h.order(issuer, { customerId, tokens: 1, roundId: other.roundId })).status).toBe(
      404,
    );
    const theirs = await h.investor(other);
    expect((await h.order(issuer, { customerId: theirs, tokens: 1 })).status).toBe(404);
    const mine = await placed(await h.order(issuer, { customerId, tokens: 1 }));
    expect(
      (await h.call('GET', `/api/token-orders/${mine.id}`, { token: other.token })).status,
    ).toBe(404);
    expect(
      (
        await h.call('POST', `/api/token-orders/${mine.id}/cancel`, {
          token: other.token,
          body: {},
        })
      ).status,
    ).toBe(404);
  });

  it('never takes more than the round has left (409 naming tokens)', async () => {
    const issuer = await h.issuerWithRound({ raiseAmountCents: 1000 });
    const customerId = await h.investor(issuer);
    await placed(await h.order(issuer, { customerId, tokens: 8 }));
    const res = await h.order(issuer, { customerId, tokens: 3 });
    expect(res.status).toBe(409);
    expect((await errorOf(res)).fields).toEqual({ tokens: 'Only 2 tokens are left' });
  });
});

describe('the failure branches', () => {
  it('a declined payment fails the order and gives its tokens back', async () => {
    const issuer = await h.issuerWithRound();
    const customerId = await h.investor(issuer);
    const order = await placed(await h.order(issuer, { customerId, tokens: 10 }));
    await decline(order.paymentId ?? '');
    const failed = await h.settle(issuer, order.id, 'payment_failed');
    expect(failed.failureReason).toBe('declined');
    await h.processor.runOnce();
    await expect
      .poll(() => get(issuer.token, `/api/funding-rounds/${issuer.roundId}`))
      .toMatchObject({ tokensReserved: 0, tokensAvailable: 1000 });
  });

  it('a cancel before payment cancels the payment and gives the tokens back', async () => {
    const issuer = await h.issuerWithRound();
    const customerId = await h.investor(issuer);
    const order = await placed(await h.order(issuer, { customerId, tokens: 10 }));
    const res = await h.call('POST', `/api/token-orders/${order.id}/cancel`, {
      token: issuer.token,
      body: { reason: 'The investor changed their mind' },
    });
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toMatchObject({
      status: 'cancelled',
      failureReason: 'The investor changed their mind',
    });
    const payment = await jsonOf<Json>(await h.getPayment(issuer.token, order.paymentId ?? ''));
    expect(payment.status).toBe('cancelled');
    await h.processor.runOnce();
    await h.processor.runOnce();
    await expect
      .poll(() => get(issuer.token, `/api/funding-rounds/${issuer.roundId}`))
      .toMatchObject({ tokensReserved: 0, tokensAvailable: 1000 });
  });

  it('a failing distribution is retried, then held; a refund returns the money and the tokens', async () => {
    const issuer = await h.issuerWithRound();
    const customerId = await h.investor(issuer);
    const order = await placed(await h.order(issuer, { customerId, tokens: 25 }));
    h.ledger.failNext(3);
    await h.capture(order.paymentId ?? '');
    const held = await h.settle(issuer, order.id, 'distribution_failed', (o) => o.held);
    expect(held).toMatchObject({ held: true, distributionAttempts: 3 });
    expect(held.lastError).toContain('test failure');
    const cancel = await h.call('POST', `/api/token-orders/${order.id}/cancel`, {
      token: issuer.token,
      body: {},
    });
    expect(cancel.status).toBe(409);
    expect((await errorOf(cancel)).message).toContain('refund it instead');

    const refund = await h.call('POST', `/api/token-orders/${order.id}/refund`, {
      token: issuer.token,
      body: { reason: 'Distribution failed' },
    });
    expect(refund.status).toBe(200);
    const refunded = await h.settle(issuer, order.id, 'refunded');
    expect(refunded.refundId).toMatch(/^rf_/);
    await h.processor.runOnce();
    await expect
      .poll(() => get(issuer.token, `/api/funding-rounds/${issuer.roundId}`))
      .toMatchObject({ tokensPurchased: 0, amountRaisedCents: 0, tokensAvailable: 1000 });
    await expect
      .poll(() => get(issuer.token, `/api/customers/${customerId}`))
      .toMatchObject({ investorStatus: 'Refunded' });
  });

  it('a held distribution tried again by a person completes the order', async () => {
    const issuer = await h.issuerWithRound();
    const customerId = await h.investor(issuer);
    const order = await placed(await h.order(issuer, { customerId, tokens: 5 }));
    h.ledger.failNext(3);
    await h.capture(order.paymentId ?? '');
    await h.settle(issuer, order.id, 'distribution_failed', (o) => o.held);
    const retry = await h.call('POST', `/api/token-orders/${order.id}/retry-distribution`, {
      token: issuer.token,
    });
    expect(retry.status).toBe(200);
    const done = await h.settle(issuer, order.id, 'complete');
    expect(done.distributionAttempts).toBe(4);
  });
});

describe('the order process read again from the start (a crash, a rebuilt checkpoint)', () => {
  it('acts on nothing twice: no event is appended, no investor moves back', async () => {
    await h.processor.runOnce();
    const count = async () => (await h.store.readAll({ after: -1n, maxCount: 1_000_000 })).length;
    const before = await count();
    await h.pool.query(
      "UPDATE process_checkpoints SET position = -1 WHERE name = 'tokenOrderProcessor'",
    );
    await h.processor.runOnce();
    const all = await h.store.readAll({ after: -1n, maxCount: 1_000_000 });
    expect(all.slice(before).map((e) => [e.type, e.streamId, JSON.stringify(e.data)])).toEqual([]);
  });
});
