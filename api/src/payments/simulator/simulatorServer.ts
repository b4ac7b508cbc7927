import { DomainError, invalid } from '@issuer/events';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { errorBody, validationError } from '../../http';
import { RefundRefused, refundRefusedCode } from '../gateway';
import { signatureHeader, verifyWebhook } from '../webhooks/webhookSignature';
import type { TerminalSimulatorGateway } from './terminalSimulator';

/**
 * The HTTP face of `npm run terminal-simulator`, which the API's HTTP adapter
 * (`createTerminalGatewayClient`) calls. Every request carries a `Terminal-Signature` over its
 * body with the shared secret, the same scheme as the webhooks back, so only the API drives it.
 */
export function simulatorServer(
  simulator: TerminalSimulatorGateway,
  { secret, clock }: { secret: Uint8Array; clock: () => Date },
): Hono {
  const app = new Hono();
  app.get('/health', (c) => c.json({ status: 'ok', gateway: simulator.name }, 200));
  const body = <Schema extends z.ZodType>(c: Context, schema: Schema) =>
    signedBody(c, schema, secret, clock);
  app.post('/payments', async (c) => {
    return c.json(await simulator.sendPayment(await body(c, sendSchema)), 200);
  });
  app.post('/payments/off-session', async (c) => {
    return c.json(await simulator.chargeSavedCard(await body(c, offSessionSchema)), 200);
  });
  app.post('/payments/cancel', async (c) => {
    await simulator.cancelPayment(await body(c, cancelSchema));
    return c.json({ cancelled: true }, 200);
  });
  app.post('/refunds', async (c) => {
    await simulator.refundPayment(await body(c, refundSchema));
    return c.json({ refunded: true }, 200);
  });
  app.post('/terminals/present-card', async (c) => {
    const presented = await simulator.presentCard(await body(c, presentSchema));
    if (!presented) {
      return c.json(errorBody('conflict', 'No payment is waiting on this terminal'), 409);
    }
    return c.json(presented, 202);
  });
  app.post('/terminals/waiting', async (c) => {
    const { companyId, terminalId } = await body(c, terminalSchema);
    return c.json({ waiting: await simulator.waitingOn(companyId, terminalId) }, 200);
  });
  app.onError((error, c) => {
    if (error instanceof RefundRefused) {
      const body = {
        error: { code: refundRefusedCode, message: error.message, reason: error.reason },
      };
      return c.json(body, 409);
    }
    if (error instanceof DomainError) {
      return c.json(errorBody(error.code, error.message, error.fields), error.status);
    }
    console.error('terminal simulator: request failed', error);
    return c.json(errorBody('internal_error', 'The terminal simulator failed'), 500);
  });
  app.notFound((c) => c.json(errorBody('not_found', 'There is nothing at this address'), 404));
  return app;
}

const id = z.string().min(1).max(200);
const cents = z.number().int().min(1).max(99_999_999);
const currency = z.literal('CAD');
const sendSchema = z.strictObject({
  paymentId: id,
  companyId: id,
  terminalId: id,
  amountCents: cents,
  currency,
  expiresAt: z.iso.datetime({ offset: true }),
  saveCard: z.boolean().optional(),
});
const offSessionSchema = z.strictObject({
  paymentId: id,
  companyId: id,
  cardToken: id,
  amountCents: cents,
  currency,
});
const cancelSchema = z.strictObject({ paymentId: id, terminalId: id });
const refundSchema = z.strictObject({ paymentId: id, refundId: id, amountCents: cents, currency });
const terminalSchema = z.strictObject({ companyId: id, terminalId: id });
const presentSchema = terminalSchema.extend({
  card: z.string().max(30).optional(),
  paymentId: id.optional(),
});

/**
 * The request's JSON body, once its signature holds (401 otherwise), validated (400). Shared by
 * the simulators that run as their own process, each under its own header.
 */
export async function signedBody<Schema extends z.ZodType>(
  c: Context,
  schema: Schema,
  secret: Uint8Array,
  clock: () => Date,
  header = signatureHeader,
): Promise<z.infer<Schema>> {
  const raw = await c.req.text();
  const check = verifyWebhook(secret, c.req.header(header), raw, clock());
  if (!check.valid) {
    throw new DomainError(401, 'invalid_signature', `Bad ${header}: ${check.reason}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw invalid('The body is not valid JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}
