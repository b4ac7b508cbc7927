import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCustomersHarness } from '../../customers/testing/customersHarness';
import { errorOf, jsonOf } from '../../http/testing/responses';
import { ledgerCheck } from '../testing/ledgerCheck';
import type { WaitingPayment } from './terminalSimulator';
import { type SimulatorHarness, startSimulatorHarness } from './testing/simulatorHarness';

let h: SimulatorHarness;
let company: Awaited<ReturnType<SimulatorHarness['companyWithTerminal']>>;
let other: Awaited<ReturnType<SimulatorHarness['companyWithTerminal']>>;
beforeAll(async () => {
  h = await startSimulatorHarness();
  company = await h.companyWithTerminal();
  other = await h.companyWithTerminal();
});
afterAll(() => h.close());
// After every test: each company's ledger balances and equals captured − refunded.
const ledger = ledgerCheck();
afterEach(() => ledger.verify(h));

const presentCard = (terminalId: string, body: unknown = {}, token = company.token) =>
  h.call('POST', `/api/terminals/${terminalId}/simulator/present-card`, { token, body });
const waiting = async (terminalId: string, token = company.token) => {
  const res = await h.call('GET', `/api/terminals/${terminalId}/simulator`, { token });
  expect(res.status).toBe(200);
  return (await jsonOf<{ waiting: WaitingPayment[] }>(res)).waiting;
};
const pay = (amountCents = 1500, terminalId = company.terminalId) =>
  h.pay(company.token, { terminalId, amountCents, currency: 'CAD' });

/**
 * A company and terminal of its own per test (a company has at most 3 terminals), so no payment
 * of another test waits on it; the helpers above act as this company.
 */
async function freshTerminal() {
  company = await h.companyWithTerminal();
  return company.terminalId;
}

describe('POST /api/terminals/:id/simulator/present-card', () => {
  it.each([
    [undefined, { status: 'captured', cardBrand: 'visa', cardLast4: '4242', declineReason: null }],
    ['4242424242424242', { status: 'captured', cardBrand: 'visa', cardLast4: '4242' }],
    ['5555555555554444', { status: 'captured', cardBrand: 'mastercard', cardLast4: '4444' }],
    ['4000000000000002', { status: 'declined', declineReason: 'card_declined' }],
    ['4000000000009995', { status: 'declined', declineReason: 'insufficient_funds' }],
    ['4000000000000069', { status: 'declined', declineReason: 'expired_card' }],
    ['4000000000000127', { status: 'declined', declineReason: 'incorrect_cvc' }],
    ['4000000000000119', { status: 'declined', declineReason: 'processing_error' }],
  ])(
    'card %s: 202 {paymentId}, then over the webhook the payment is %o',
    async (card, expected) => {
      const terminalId = await freshTerminal();
      const payment = await pay(3300, terminalId);
      expect(await waiting(terminalId)).toMatchObject([
        { paymentId: payment.id, amountCents: 3300, currency: 'CAD', expiresAt: payment.expiresAt },
      ]);
      const res = await presentCard(terminalId, card === undefined ? {} : { card });
      expect(res.status).toBe(202);
      expect(await jsonOf(res)).toEqual({ paymentId: payment.id });
      expect(await waiting(terminalId)).toEqual([]);
      await h.deliver();
      const after = await h.payment(company.token, payment.id);
      expect(after).toMatchObject({ ...expected, completedAt: expect.any(String) });
      expect(after.refundableCents).toBe(expected.status === 'captured' ? 3300 : 0);
      const ledger = await h.balancedLedger(company.companyId);
      expect(ledger.availableCents).toBe(expected.status === 'captured' ? 3300n : 0n);
    },
  );

  it('with nothing waiting on the terminal: 409, in the error shape', async () => {
    const terminalId = await freshTerminal();
    const res = await presentCard(terminalId);
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toMatchObject({ code: 'conflict' });
  });

  it("another company's terminal, an unknown one: 404, and the payment keeps waiting", async () => {
    const terminalId = await freshTerminal();
    const payment = await pay(1200, terminalId);
    for (const [id, token] of [
      [terminalId, other.token],
      ['no-such-terminal', company.token],
    ] as const) {
      const res = await presentCard(id, {}, token);
      expect(res.status).toBe(404);
      expect(await errorOf(res)).toMatchObject({ code: 'not_found' });
    }
    const res = await h.call('GET', `/api/terminals/${terminalId}/simulator`, {
      token: other.token,
    });
    expect(res.status).toBe(404);
    expect((await waiting(terminalId)).map((w) => w.paymentId)).toEqual([payment.id]);
  });

  it('a card that is not a test card, or not a card: 400 naming card, nothing charged', async () => {
    const terminalId = await freshTerminal();
    await pay(1200, terminalId);
    for (const card of ['4111111111111111', 'abc', 4242424242424242]) {
      const res = await presentCard(terminalId, { card });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).fields).toHaveProperty('card');
    }
    expect(await waiting(terminalId)).toHaveLength(1);
  });

  it('compliance may look at the terminal but not present a card (403); no token: 401', async () => {
    const terminalId = await freshTerminal();
    await pay(1200, terminalId);
    const compliance = await h.complianceToken(company.token);
    expect(await waiting(terminalId, compliance)).toHaveLength(1);
    expect((await presentCard(terminalId, {}, compliance)).status).toBe(403);
    const anonymous = await h.call('POST', `/api/terminals/${terminalId}/simulator/present-card`, {
      body: {},
    });
    expect(anonymous.status).toBe(401);
  });

  it('two payments on a terminal: the card goes to the oldest, or to the one named', async () => {
    const terminalId = await freshTerminal();
    const first = await pay(100, terminalId);
    const second = await pay(200, terminalId);
    const third = await pay(300, terminalId);
    expect(await jsonOf(await presentCard(terminalId, { paymentId: third.id }))).toEqual({
      paymentId: third.id,
    });
    expect(await jsonOf(await presentCard(terminalId))).toEqual({ paymentId: first.id });
    expect((await waiting(terminalId)).map((w) => w.paymentId)).toEqual([second.id]);
  });
});

describe('cancel', () => {
  it('clears the terminal: nothing waits, a card finds nothing (409), the payment stays cancelled', async () => {
    const terminalId = await freshTerminal();
    const payment = await pay(4000, terminalId);
    const cancel = await h.call('POST', `/api/payments/${payment.id}/cancel`, {
      token: company.token,
    });
    expect(cancel.status).toBe(200);
    expect(await waiting(terminalId)).toEqual([]);
    expect((await presentCard(terminalId)).status).toBe(409);
    await h.deliver();
    expect((await h.payment(company.token, payment.id)).status).toBe('cancelled');
  });
});

describe('with another gateway than the simulator', () => {
  it('the simulator routes do not exist (404)', async () => {
    const plain = await startCustomersHarness();
    try {
      const owner = await plain.verifiedCompany();
      const res = await plain.call('POST', '/api/terminals/any/simulator/present-card', {
        token: owner.token,
        body: {},
      });
      expect(res.status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
