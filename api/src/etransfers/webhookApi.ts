import { payoutFailureReason } from '@issuer/events';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv, Feature } from '../http';
import { describeRoute, webhookDescription } from '../http/openapiSpec';
import { signedWebhookBody } from '../payments/webhooks/webhookApi';
import {
  etransferSignatureHeader,
  etransferWebhookSecretOf,
} from '../payments/webhooks/webhookSignature';
import { receiveIncoming, recordProviderEvent } from './etransferCommands';
import type { ProviderEvent } from './provider';

export const etransferWebhookPath = '/etransfers/webhooks/provider';

const text = z.string().min(1).max(200);
const base = { id: text, providerTransferId: text, occurredAt: z.iso.datetime() };
const cents = z.number().int().min(1).max(99_999_999);
/** Unknown fields are allowed: a provider adds fields to its payloads without notice. */
export const providerEventSchema: z.ZodType<ProviderEvent> = z.discriminatedUnion('type', [
  z.object({
    ...base,
    type: z.literal('request.deposited'),
    etransferId: text,
    amountCents: cents,
  }),
  z.object({ ...base, type: z.literal('request.declined'), etransferId: text }),
  z.object({ ...base, type: z.literal('payout.sent'), etransferId: text }),
  z.object({
    ...base,
    type: z.literal('payout.failed'),
    etransferId: text,
    reason: payoutFailureReason,
  }),
  z.object({
    ...base,
    type: z.literal('incoming.received'),
    companyId: text,
    fromEmail: z.string().min(1).max(320),
    amountCents: cents,
    reference: z.string().max(200).nullable(),
  }),
]);

/**
 * The e-transfer provider's webhook: public, trusted through its `Etransfer-Signature` (the
 * terminal's scheme, its own key). Recorded before answering 200; a duplicate is also 200.
 */
export const etransferWebhookRoutes: Feature = () =>
  new Hono<AppEnv>().post(
    etransferWebhookPath,
    describeRoute(
      webhookDescription(
        'The e-transfer provider’s events',
        etransferSignatureHeader,
        providerEventSchema,
      ),
    ),
    async (c) => {
      const { deps } = c.var;
      const signature = {
        secret: etransferWebhookSecretOf(deps.config),
        header: etransferSignatureHeader,
        label: 'e-transfer',
      };
      const body = await signedWebhookBody(c, signature, providerEventSchema);
      if ('refused' in body) return body.refused;
      const origin = { correlationId: c.var.requestId };
      const { event } = body;
      if (event.type === 'incoming.received') await receiveIncoming(deps, event, origin);
      else await recordProviderEvent(deps, event, origin);
      return c.json({ received: true }, 200);
    },
  );
