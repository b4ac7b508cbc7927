import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf } from '../http/testing/responses';
import {
  type BillingHarness,
  type Payee,
  startBillingHarness,
} from '../subscriptions/testing/billingHarness';

let h: BillingHarness;
let a: Payee;
let b: Payee;

beforeAll(async () => {
  h = await startBillingHarness();
  a = await h.companyWithCustomer();
  b = await h.companyWithCustomer();
});
afterAll(() => h?.close());

type Card = { id: string; status: string; [field: string]: unknown };
const errorOf = async (res: Response) =>
  (await jsonOf<{ error: { fields?: Record<string, string> } }>(res)).error;

describe('saved cards', () => {
  it('saving needs a customer and a boolean: 400 naming saveCard, nothing recorded', async () => {
    const before = await h.pool.query('SELECT count(*)::int AS n FROM es_events');
    for (const body of [{ saveCard: true }, { saveCard: 'yes', customerId: a.customerId }]) {
      const res = await h.call('POST', '/api/payments', {
        token: a.token,
        body: { terminalId: 'any', amountCents: 100, currency: 'CAD', ...body },
      });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).fields).toHaveProperty('saveCard');
    }
    const after = await h.pool.query('SELECT count(*)::int AS n FROM es_events');
    expect(after.rows).toEqual(before.rows);
  });

  it('a captured payment with "save the card" saves the token, never the number; listed, removable once', async () => {
    const id = await h.saveCard(a, '5555555555554444');
    const list = await h.call('GET', `/api/customers/${a.customerId}/cards`, { token: a.token });
    expect(list.headers.get('Content-Range')).toBe('cards 0-0/1');
    const text = await list.text();
    expect(text).not.toContain('5555555555554444');
    expect(text).not.toContain('card_');
    const [card] = JSON.parse(text) as Card[];
    expect(card).toMatchObject({
      id,
      customerId: a.customerId,
      cardBrand: 'mastercard',
      cardLast4: '4444',
      expMonth: 12,
      status: 'saved',
      removedAt: null,
    });
    expect(Object.keys(card ?? {})).not.toContain('cardToken');
    const { rows } = await h.pool.query(
      "SELECT data FROM es_events WHERE type = 'CardSaved' AND stream_id = $1",
      [`PaymentMethod-${id}`],
    );
    expect(JSON.stringify(rows)).not.toContain('5555555555554444');

    const removed = await h.call('DELETE', `/api/payment-methods/${id}`, { token: a.token });
    expect(removed.status).toBe(200);
    expect(await jsonOf<Card>(removed)).toMatchObject({ id, status: 'removed' });
    const again = await h.call('DELETE', `/api/payment-methods/${id}`, { token: a.token });
    expect(again.status).toBe(200);
    const events = await h.pool.query(
      "SELECT data->>'removedBy' AS by FROM es_events WHERE type = 'CardRemoved' AND stream_id = $1",
      [`PaymentMethod-${id}`],
    );
    expect(events.rows).toEqual([{ by: a.userId }]);
    const shown = await h.call('GET', `/api/customers/${a.customerId}/cards`, { token: a.token });
    expect(await jsonOf<Card[]>(shown)).toEqual([]);
    const all = await h.call('GET', `/api/customers/${a.customerId}/cards?removed=true`, {
      token: a.token,
    });
    expect(await jsonOf<Card[]>(all)).toMatchObject([{ id, status: 'removed' }]);

    // A removed card is no card to subscribe with.
    const plan = await h.plan(a);
    const sub = await h.call('POST', '/api/subscriptions', {
      token: a.token,
      body: {
        customerId: a.customerId,
        planId: plan.id,
        collectionMethod: 'card',
        paymentMethodId: id,
      },
    });
    expect(sub.status).toBe(409);
    expect((await errorOf(sub)).fields).toHaveProperty('paymentMethodId');
  });

  it('a payment without "save the card" saves nothing', async () => {
    const payee = await h.companyWithCustomer();
    const terminal = await h.call('POST', '/api/terminals', {
      token: payee.token,
      body: { name: 'Till', deviceId: `tcards_${Date.now()}` },
    });
    const { id: terminalId } = await jsonOf<{ id: string }>(terminal);
    const paid = await h.call('POST', '/api/payments', {
      token: payee.token,
      body: { terminalId, amountCents: 100, currency: 'CAD', customerId: payee.customerId },
    });
    expect(paid.status).toBe(201);
    await h.call('POST', `/api/terminals/${terminalId}/simulator/present-card`, {
      token: payee.token,
      body: {},
    });
    await h.bill();
    const list = await h.call('GET', `/api/customers/${payee.customerId}/cards`, {
      token: payee.token,
    });
    expect(await jsonOf<Card[]>(list)).toEqual([]);
  });

  it('another company’s customer or card is 404 on every route; a bad query is 400 naming it', async () => {
    const theirs = await h.saveCard(b);
    const calls = [
      h.call('GET', `/api/customers/${b.customerId}/cards`, { token: a.token }),
      h.call('GET', `/api/payment-methods/${theirs}`, { token: a.token }),
      h.call('DELETE', `/api/payment-methods/${theirs}`, { token: a.token }),
      h.call('GET', '/api/payment-methods/pm_nonsense', { token: a.token }),
    ];
    expect((await Promise.all(calls)).map((res) => res.status)).toEqual([404, 404, 404, 404]);
    const mine = await h.call('GET', `/api/payment-methods/${theirs}`, { token: b.token });
    expect(await jsonOf<Card>(mine)).toMatchObject({ id: theirs, status: 'saved' });
    const bad = await h.call('GET', `/api/customers/${a.customerId}/cards?removed=maybe`, {
      token: a.token,
    });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).fields).toHaveProperty('removed');
  });
});
