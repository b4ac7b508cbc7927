import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { createDatabase } from '@issuer/test-support';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayEvent, RefundRefused } from '../gateway';
import { signatureHeader, signWebhook } from '../webhooks/webhookSignature';
import { simulatorServer } from './simulatorServer';
import { migrateTerminalSimulator } from './simulatorTables';
import { createTerminalGatewayClient } from './terminalGatewayClient';
import { createTerminalSimulator } from './terminalSimulator';

const secret = new TextEncoder().encode('gateway-client-secret-0123456789-abcdef');
const clock = () => new Date();
let pool: pg.Pool;
let server: ServerType;
let url: string;
const received: GatewayEvent[] = [];
const simulator = () =>
  createTerminalSimulator({
    pool,
    clock,
    secret,
    deliver: async ({ body }) => {
      received.push(JSON.parse(body) as GatewayEvent);
      return 200;
    },
  });
let inProcess: ReturnType<typeof simulator>;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: await createDatabase(), max: 5 });
  await migrateTerminalSimulator(pool);
  inProcess = simulator();
  const app = simulatorServer(inProcess, { secret, clock });
  server = await new Promise<ServerType>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve(started),
    );
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await pool.end();
});

const request = (paymentId: string) => ({
  paymentId,
  companyId: 'company-http',
  terminalId: `terminal-${paymentId}`,
  amountCents: 700,
  currency: 'CAD' as const,
  expiresAt: new Date(Date.now() + 60_000).toISOString(),
});

describe('the simulator as its own process, through the HTTP adapter', () => {
  it('sends idempotently, shows what waits, takes a card, then answers "nothing waits"', async () => {
    const client = createTerminalGatewayClient({ url, secret, clock });
    const first = await client.sendPayment(request('pay_http_1'));
    expect(await client.sendPayment(request('pay_http_1'))).toEqual(first);
    const waiting = await client.waitingOn('company-http', 'terminal-pay_http_1');
    expect(waiting).toMatchObject([{ paymentId: 'pay_http_1', amountCents: 700 }]);
    const at = { companyId: 'company-http', terminalId: 'terminal-pay_http_1' };
    expect(await client.presentCard({ ...at, card: '5555555555554444' })).toEqual({
      paymentId: 'pay_http_1',
    });
    expect(await client.presentCard(at)).toBeUndefined();
    await inProcess.deliverDue();
    expect(received.filter((e) => e.paymentId === 'pay_http_1').map((e) => e.type)).toEqual([
      'payment.authorized',
      'payment.captured',
    ]);
    await client.refundPayment({
      paymentId: 'pay_http_1',
      refundId: 're_http_1',
      amountCents: 700,
      currency: 'CAD',
    });
  });

  it('passes the simulator refusals on as the same errors (400 naming card, 409, a refused refund)', async () => {
    const client = createTerminalGatewayClient({ url, secret, clock });
    await client.sendPayment(request('pay_http_2'));
    const at = { companyId: 'company-http', terminalId: 'terminal-pay_http_2' };
    await expect(client.presentCard({ ...at, card: '1234' })).rejects.toMatchObject({
      status: 400,
      fields: { card: expect.any(String) },
    });
    await client.cancelPayment({ paymentId: 'pay_http_2', terminalId: at.terminalId });
    expect(await client.presentCard(at)).toBeUndefined();
    await expect(
      client.refundPayment({
        paymentId: 'pay_http_2',
        refundId: 're_http_2',
        amountCents: 1,
        currency: 'CAD',
      }),
    ).rejects.toSatisfy(
      (error) => error instanceof RefundRefused && error.reason === 'charge_not_captured',
    );
  });

  it("refuses an unsigned or wrongly signed request with 401, and the client does not pass that on as the caller's 401", async () => {
    const body = JSON.stringify(request('pay_http_3'));
    const unsigned = await fetch(`${url}/payments`, { method: 'POST', body });
    expect(unsigned.status).toBe(401);
    const other = new TextEncoder().encode('another-secret-0123456789-abcdefghijk');
    const wrong = await fetch(`${url}/payments`, {
      method: 'POST',
      headers: { [signatureHeader]: signWebhook(other, body, new Date()) },
      body,
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: { code: 'invalid_signature' } });
    const client = createTerminalGatewayClient({ url, secret: other, clock });
    const failure = client.sendPayment(request('pay_http_3'));
    await expect(failure).rejects.toThrow(/HTTP 401/);
    const { rowCount } = await pool.query(
      "SELECT 1 FROM terminal_simulator_payments WHERE payment_id = 'pay_http_3'",
    );
    expect(rowCount).toBe(0);
  });

  it('saves the card of a payment sent with saveCard, then charges the token off-session once (a saved 0341 card is declined)', async () => {
    const client = createTerminalGatewayClient({ url, secret, clock });
    const saved = async (paymentId: string, card: string) => {
      await client.sendPayment({ ...request(paymentId), saveCard: true });
      await client.presentCard({
        companyId: 'company-http',
        terminalId: `terminal-${paymentId}`,
        card,
      });
      await inProcess.deliverDue();
      const captured = received.find(
        (e) => e.paymentId === paymentId && e.type === 'payment.captured',
      );
      if (captured?.type !== 'payment.captured') throw new Error('not captured');
      expect(captured).toMatchObject({ cardLast4: card.slice(-4), cardExpMonth: 12 });
      expect(JSON.stringify(captured)).not.toContain(card);
      return captured.cardToken ?? '';
    };
    const good = await saved('pay_http_4', '4242424242424242');
    const bad = await saved('pay_http_5', '4000000000000341');
    expect(good).toMatch(/^card_/);
    const charge = (paymentId: string, cardToken: string) =>
      client.chargeSavedCard({
        paymentId,
        companyId: 'company-http',
        cardToken,
        amountCents: 900,
        currency: 'CAD',
      });
    const first = await charge('pay_http_6', good);
    expect(await charge('pay_http_6', good)).toEqual(first);
    await charge('pay_http_7', bad);
    await charge('pay_http_8', 'card_unknown');
    // Another company cannot charge this company's token.
    await client.chargeSavedCard({
      paymentId: 'pay_http_9',
      companyId: 'company-other',
      cardToken: good,
      amountCents: 900,
      currency: 'CAD',
    });
    await inProcess.deliverDue();
    const outcome = (paymentId: string) =>
      received.filter((e) => e.paymentId === paymentId).map((e) => e.type);
    expect(outcome('pay_http_6')).toEqual(['payment.authorized', 'payment.captured']);
    expect(received.find((e) => e.paymentId === 'pay_http_7')).toMatchObject({
      type: 'payment.declined',
      reason: 'card_declined',
    });
    expect(outcome('pay_http_8')).toEqual(['payment.declined']);
    expect(outcome('pay_http_9')).toEqual(['payment.declined']);
  });
});
