import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf } from '../http/testing/responses';
import type { OrderResource } from './queries';
import { type Json, type OrdersHarness, startOrdersHarness } from './testing/ordersHarness';

let h: OrdersHarness;

beforeAll(async () => {
  h = await startOrdersHarness();
});
afterAll(async () => {
  await h?.close();
});

const get = <T = Json>(token: string, path: string) => h.get<T>(token, path);

describe("a customer's roundId (derived from their funded token orders)", () => {
  it('is the round of the order whose money arrived, in the record, the list and as of then', async () => {
    const issuer = await h.issuerWithRound();
    const customerId = await h.investor(issuer, { roundId: 'typed-in' });
    const record = () => get(issuer.token, `/api/customers/${customerId}`);
    // Before any money arrived: the value the customer was added with, as for tokenBalance.
    expect(await record()).toMatchObject({ roundId: 'typed-in' });

    const res = await h.order(issuer, { customerId, tokens: 5 });
    expect(res.status).toBe(201);
    const order = await jsonOf<OrderResource>(res);
    // Placed and awaiting payment: no money yet, so no round yet.
    expect(await record()).toMatchObject({ roundId: 'typed-in' });
    h.advanceClock(1000);
    const beforeMoney = h.deps.clock().toISOString();
    h.advanceClock(1000);
    await h.capture(order.paymentId ?? '');
    await h.settle(issuer, order.id, 'complete');

    await expect.poll(record).toMatchObject({ roundId: issuer.roundId });
    const list = await get<Json[]>(issuer.token, '/api/customers');
    expect(list.find((row) => row.id === customerId)).toMatchObject({ roundId: issuer.roundId });

    const then = await get(
      issuer.token,
      `/api/customers/${customerId}?asOf=${encodeURIComponent(beforeMoney)}`,
    );
    expect(then).toMatchObject({ roundId: 'typed-in' });
    const now = await get(
      issuer.token,
      `/api/customers/${customerId}?asOf=${encodeURIComponent(h.deps.clock().toISOString())}`,
    );
    expect(now).toMatchObject({ roundId: issuer.roundId });

    // Another company never sees it.
    const other = await h.issuerWithRound();
    expect(
      (await h.call('GET', `/api/customers/${customerId}`, { token: other.token })).status,
    ).toBe(404);
  });

  it('is sent back by edits and ignored, as tokenBalance is (PUT and the seed’s update-contact)', async () => {
    const issuer = await h.issuerWithRound();
    const customerId = await h.investor(issuer);
    const loaded = await get(issuer.token, `/api/customers/${customerId}`);
    expect(loaded).toMatchObject({ roundId: '' });

    const put = await h.call('PUT', `/api/customers/${customerId}`, {
      token: issuer.token,
      body: { ...loaded, nickname: 'Al', roundId: 'rnd_typed' },
    });
    expect(put.status).toBe(200);
    expect(await jsonOf<Json>(put)).toMatchObject({ nickname: 'Al', roundId: '' });
    const updated = await h.call('POST', '/api/contacts-app/update-contact', {
      token: issuer.token,
      body: { contact: { id: customerId, nickname: 'Ally', roundId: 'rnd_typed' } },
    });
    expect(updated.status).toBe(200);
    expect(await jsonOf<Json>(updated)).toMatchObject({ nickname: 'Ally', roundId: '' });
    const events = await h.store.readStream(`Customer-${customerId}`);
    expect(JSON.stringify(events.map((event) => event.data))).not.toContain('rnd_typed');
  });
});
