import { DomainError } from '@issuer/events';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { errorBody } from '../../http';
import { signedBody } from '../../payments/simulator/simulatorServer';
import { etransferSignatureHeader } from '../../payments/webhooks/webhookSignature';
import type { EtransferSimulatorProvider } from './etransferSimulator';

/**
 * The HTTP face of `npm run etransfer-simulator`, which the API's HTTP adapter
 * (`createEtransferProviderClient`) calls. Every request carries an `Etransfer-Signature` over its
 * body with the shared secret, the scheme of the webhooks back, so only the API drives it.
 */
export function etransferSimulatorServer(
  simulator: EtransferSimulatorProvider,
  { secret, clock }: { secret: Uint8Array; clock: () => Date },
): Hono {
  const app = new Hono();
  const body = <Schema extends z.ZodType>(c: Context, schema: Schema) =>
    signedBody(c, schema, secret, clock, etransferSignatureHeader);
  app.get('/health', (c) => c.json({ status: 'ok', provider: simulator.name }, 200));
  app.post('/requests', async (c) =>
    c.json(await simulator.requestMoney(await body(c, requestSchema)), 200),
  );
  app.post('/requests/cancel', async (c) => {
    await simulator.cancelRequest(await body(c, idSchema));
    return c.json({ cancelled: true }, 200);
  });
  app.post('/payouts', async (c) =>
    c.json(await simulator.sendMoney(await body(c, payoutSchema)), 200),
  );
  app.post('/requests/deposit', async (c) => {
    const { companyId, etransferId } = await body(c, answerSchema);
    return c.json({ done: await simulator.deposit(companyId, etransferId) }, 200);
  });
  app.post('/requests/decline', async (c) => {
    const { companyId, etransferId } = await body(c, answerSchema);
    return c.json({ done: await simulator.decline(companyId, etransferId) }, 200);
  });
  app.post('/incoming', async (c) =>
    c.json(await simulator.incoming(await body(c, incomingSchema)), 202),
  );
  app.onError((error, c) => {
    if (error instanceof DomainError) {
      return c.json(errorBody(error.code, error.message, error.fields), error.status);
    }
    console.error('e-transfer simulator: request failed', error);
    return c.json(errorBody('internal_error', 'The e-transfer simulator failed'), 500);
  });
  app.notFound((c) => c.json(errorBody('not_found', 'There is nothing at this address'), 404));
  return app;
}

const id = z.string().min(1).max(200);
const cents = z.number().int().min(1).max(99_999_999);
const transfer = {
  etransferId: id,
  companyId: id,
  recipientEmail: z.string().min(1).max(320),
  amountCents: cents,
  currency: z.literal('CAD'),
  message: z.string().max(400).nullable(),
};
const requestSchema = z.strictObject({
  ...transfer,
  reference: z.string().max(100).nullable(),
  expiresAt: z.iso.datetime({ offset: true }),
});
const payoutSchema = z.strictObject(transfer);
const idSchema = z.strictObject({ etransferId: id });
const answerSchema = z.strictObject({ companyId: id, etransferId: id });
const incomingSchema = z.strictObject({
  companyId: id,
  fromEmail: z.string().min(1).max(320),
  amountCents: cents,
  reference: z.string().max(100).nullable(),
});
