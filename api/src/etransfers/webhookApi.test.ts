import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, jsonOf } from '../http/testing/responses';
import {
  etransferSignatureHeader,
  etransferWebhookSecretOf,
  signatureHeader,
  signWebhook,
  webhookSecretOf,
} from '../payments/webhooks/webhookSignature';
import { etransferStream } from './etransferCommands';
import type { ProviderEvent } from './provider';
import {
  type EtransferHarness,
  type EtransferResource,
  startEtransferHarness,
} from './testing/etransferHarness';
import { etransferWebhookPath } from './webhookApi';

let h: EtransferHarness;
let company: Awaited<ReturnType<EtransferHarness['companyWithCustomer']>>;
beforeAll(async () => {
  // Every webhook delivered twice, as providers sometimes do.
  h = await startEtransferHarness({ duplicateRate: 1 });
  company = await h.companyWithCustomer();
});
afterEach(() => h.ledger.verify(h));
afterAll(() => h?.close());

const post = (body: string, headers: Record<string, string> = {}) =>
  h.app.request(`/api${etransferWebhookPath}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
  });
const signed = (event: unknown, secret = etransferWebhookSecretOf(h.deps.config)) => {
  const body = JSON.stringify(event);
  return post(body, { [etransferSignatureHeader]: signWebhook(secret, body, h.deps.clock()) });
};

async function request(amountCents = 2500) {
  const res = await h.call('POST', '/api/etransfers/requests', {
    token: company.token,
    body: { customerId: company.customerId, amountCents },
  });
  expect(res.status).toBe(201);
  return jsonOf<EtransferResource>(res);
}

const eventTypes = async (id: string) =>
  (await h.store.readStream(etransferStream(id))).map((event) => event.type);

let counter = 0;
const deposit = (etransferId: string, amountCents = 2500): ProviderEvent => {
  counter += 1;
  return {
    id: `eevt_test_${counter}`,
    type: 'request.deposited',
    etransferId,
    providerTransferId: 'etr_test',
    amountCents,
    occurredAt: h.deps.clock().toISOString(),
  };
};

describe(`POST /api${etransferWebhookPath}`, () => {
  it('records a correctly signed deposit once, however often it is delivered', async () => {
    const before = await h.balance(company.token);
    const sent = await request();
    const event = deposit(sent.id);
    for (let i = 0; i < 3; i++) {
      const res = await signed(event);
      expect(res.status).toBe(200);
      expect(await jsonOf(res)).toEqual({ received: true });
    }
    await h.settle();
    expect(await eventTypes(sent.id)).toEqual([
      'EtransferRequested',
      'EtransferSent',
      'EtransferDeposited',
    ]);
    expect(await h.balance(company.token)).toBe(before + 2500);
  });

  it('the simulator delivers each webhook twice; the second changes nothing', async () => {
    const sent = await request(900);
    h.webhookStatuses.length = 0;
    await h.call('POST', `/api/etransfers/${sent.id}/simulator/deposit`, { token: company.token });
    await h.settle();
    expect(h.webhookStatuses).toEqual([200, 200]);
    expect(
      (await eventTypes(sent.id)).filter((type) => type === 'EtransferDeposited'),
    ).toHaveLength(1);
  });

  it('out of order: a decline after the deposit, or a deposit after a cancel', async () => {
    const paid = await request(400);
    await signed(deposit(paid.id, 400));
    counter += 1;
    const late = {
      id: `eevt_test_${counter}`,
      type: 'request.declined',
      etransferId: paid.id,
      providerTransferId: 'etr_test',
      occurredAt: h.deps.clock().toISOString(),
    };
    expect((await signed(late)).status).toBe(200);
    await h.settle();
    expect((await h.etransfer(company.token, paid.id)).status).toBe('deposited');

    const cancelled = await request(600);
    await h.call('POST', `/api/etransfers/${cancelled.id}/cancel`, { token: company.token });
    // The customer paid just before the cancel reached the provider: the money moved.
    expect((await signed(deposit(cancelled.id, 600))).status).toBe(200);
    await h.settle();
    expect((await h.etransfer(company.token, cancelled.id)).status).toBe('deposited');
  });

  it.each([
    ['no signature', {}],
    ['a malformed signature', { [etransferSignatureHeader]: 't=now,v1=xyz' }],
    ['the terminal header', 'terminal'],
    ['the terminal key', 'terminal-key'],
  ] as const)('refuses %s with 401 and records nothing', async (_, how) => {
    const sent = await request(100);
    const body = JSON.stringify(deposit(sent.id, 100));
    const now = h.deps.clock();
    const headers =
      how === 'terminal'
        ? {
            [signatureHeader]: signWebhook(etransferWebhookSecretOf(h.deps.config), body, now),
          }
        : how === 'terminal-key'
          ? {
              [etransferSignatureHeader]: signWebhook(webhookSecretOf(h.deps.config), body, now),
            }
          : how;
    const res = await post(body, headers);
    expect(res.status).toBe(401);
    expect((await errorOf(res)).code).toBe('invalid_signature');
    expect(await eventTypes(sent.id)).toEqual(['EtransferRequested', 'EtransferSent']);
  });

  it('refuses a signed body of the wrong shape with 400 naming the field', async () => {
    const res = await signed({ ...deposit('et_x'), amountCents: 'lots' });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields).toHaveProperty('amountCents');
  });

  it('an autodeposit delivered twice is one e-transfer', async () => {
    counter += 1;
    const incoming = {
      id: `eevt_in_${counter}`,
      type: 'incoming.received',
      companyId: company.companyId,
      providerTransferId: `etr_in_${counter}`,
      fromEmail: 'someone@example.test',
      amountCents: 777,
      reference: null,
      occurredAt: h.deps.clock().toISOString(),
    };
    const before = await h.balance(company.token);
    expect((await signed(incoming)).status).toBe(200);
    expect((await signed({ ...incoming, id: `${incoming.id}-redelivered` })).status).toBe(200);
    await h.settle();
    expect(await h.balance(company.token)).toBe(before + 777);
  });
});

describe('the wallet records card payments too', () => {
  it('a captured payment funds a payout; a refund takes it back', async () => {
    const payee = await h.companyWithCustomer();
    const terminal = await h.call('POST', '/api/terminals', {
      token: payee.token,
      body: { name: 'Till', deviceId: `tw_${Date.now()}` },
    });
    const terminalId = (await jsonOf<{ id: string }>(terminal)).id;
    const pay = await h.call('POST', '/api/payments', {
      token: payee.token,
      body: { terminalId, amountCents: 4000, currency: 'CAD' },
    });
    const paymentId = (await jsonOf<{ id: string }>(pay)).id;
    const { recordGatewayEvent } = await import('../payments/paymentCommands');
    const base = {
      paymentId,
      gatewayPaymentId: 'gw',
      occurredAt: h.deps.clock().toISOString(),
      amountCents: 4000,
      cardBrand: 'visa',
      cardLast4: '4242',
    };
    await recordGatewayEvent(h.deps, { ...base, id: `c-${paymentId}`, type: 'payment.captured' });
    await h.settle();
    const payout = (amountCents: number) =>
      h.call('POST', '/api/etransfers/payouts', {
        token: payee.token,
        body: { customerId: payee.customerId, amountCents },
      });
    expect((await payout(4001)).status).toBe(409);
    const refund = await h.call('POST', `/api/payments/${paymentId}/refunds`, {
      token: payee.token,
      body: { amountCents: 1000, reason: 'Damaged' },
    });
    expect(refund.status).toBe(201);
    await h.settle();
    expect((await payout(3001)).status).toBe(409);
    expect((await payout(3000)).status).toBe(201);
    await h.settle();
    expect(await h.balance(payee.token)).toBe(0);
  });
});
