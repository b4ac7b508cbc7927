import { declineReason } from '@issuer/events';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { type AppEnv, errorResponse, type Feature, validationError } from '../../http';
import { describeRoute, webhookDescription } from '../../http/openapiSpec';
import type { GatewayEvent } from '../gateway';
import { recordGatewayEvent } from '../paymentCommands';
import { signatureHeader, verifyWebhook, webhookSecretOf } from './webhookSignature';

export const terminalWebhookPath = '/payments/webhooks/terminal';

const text = z.string().min(1).max(200);
const base = { id: text, paymentId: text, gatewayPaymentId: text, occurredAt: z.iso.datetime() };
const cardEvent = z.object({
  ...base,
  type: z.enum(['payment.authorized', 'payment.captured']),
  amountCents: z.number().int().min(1).max(99_999_999),
  cardBrand: z.string().min(1).max(40),
  cardLast4: z.string().regex(/^\d{4}$/),
  cardToken: z.string().min(1).max(200).optional(),
  cardExpMonth: z.number().int().min(1).max(12).optional(),
  cardExpYear: z.number().int().min(2000).max(2200).optional(),
});
const declinedEvent = z.object({
  ...base,
  type: z.literal('payment.declined'),
  reason: declineReason,
});
/** Unknown fields are allowed: a processor adds fields to its payloads without notice. */
export const gatewayEventSchema: z.ZodType<GatewayEvent> = z.discriminatedUnion('type', [
  cardEvent,
  declinedEvent,
]);

const signatureMessages = (header: string) => ({
  malformed: `The ${header} header is missing or malformed`,
  mismatch: `The ${header} does not match the body`,
  outside_tolerance: `The ${header} timestamp is more than 5 minutes from ours (a replay, or a wrong clock)`,
});

/**
 * A provider's webhook body, once its signature over the raw body checks out (before anything is
 * parsed), validated by `schema`; otherwise the 401 to answer (or a 400 naming the field thrown).
 * Shared by every provider webhook: one scheme, each with its own header and key.
 */
export async function signedWebhookBody<T>(
  c: Context<AppEnv>,
  signature: { secret: Uint8Array; header: string; label: string },
  schema: z.ZodType<T>,
): Promise<{ event: T } | { refused: Response }> {
  const { deps } = c.var;
  const raw = await c.req.text();
  const check = verifyWebhook(signature.secret, c.req.header(signature.header), raw, deps.clock());
  if (!check.valid) {
    deps.logger.warn({ reason: check.reason }, `${signature.label} webhook refused: bad signature`);
    const message = signatureMessages(signature.header)[check.reason];
    return { refused: errorResponse(c, 401, 'invalid_signature', message) };
  }
  const event = schema.safeParse(parseJson(raw));
  if (!event.success) throw validationError(event.error);
  return { event: event.data };
}

/**
 * The card processor's webhook: public (no bearer token), trusted through its signature over the
 * raw body, which is checked before anything is parsed. The event is recorded before answering
 * 200, so a 2xx means it is stored; a duplicate (same event id) changes nothing and is also 200,
 * so the processor stops retrying.
 */
export const terminalWebhookRoutes: Feature = () =>
  new Hono<AppEnv>().post(
    terminalWebhookPath,
    describeRoute(
      webhookDescription('The card processor’s events', signatureHeader, gatewayEventSchema),
    ),
    async (c) => {
      const { deps } = c.var;
      const secret = webhookSecretOf(deps.config);
      const signature = { secret, header: signatureHeader, label: 'terminal' };
      const body = await signedWebhookBody(c, signature, gatewayEventSchema);
      if ('refused' in body) return body.refused;
      await recordGatewayEvent(deps, body.event, { correlationId: c.var.requestId });
      return c.json({ received: true }, 200);
    },
  );

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
