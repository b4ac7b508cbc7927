import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { customerAccessGuard } from '../customers/access';
import { type AppEnv, type Feature, idempotent, jsonBody, waitForReadModels } from '../http';
import { answerDescription, createdDescription, describeRoute } from '../http/openapiSpec';
import {
  maxDescriptionLength,
  maxPaymentCents,
  maxRefundReasonLength,
  minPaymentCents,
} from './businessLogic';
import {
  cancelPayment,
  ownPayment,
  RefundRefusedError,
  refundIdFor,
  refundPayment,
  requestPayment,
} from './paymentCommands';
import { describePayment, paymentSchema } from './paymentView';

export const amountMessage = `Must be a whole number of cents from ${minPaymentCents} to ${maxPaymentCents}`;
/** Integer cents within the limits: shared by every route that takes an amount. */
export const amountCents = z
  .number({ error: amountMessage })
  .int(amountMessage)
  .min(minPaymentCents, amountMessage)
  .max(maxPaymentCents, amountMessage);
const id = (what: string) =>
  z
    .string({ error: `Choose a ${what}` })
    .min(1, `Choose a ${what}`)
    .max(100, `Unknown ${what}`);

export const newPaymentSchema = z.strictObject({
  terminalId: id('terminal'),
  amountCents,
  currency: z.literal('CAD', { error: 'Must be CAD' }),
  customerId: id('customer').nullable().optional(),
  description: z
    .string({ error: 'Must be text' })
    .trim()
    .max(maxDescriptionLength, `Max character length is ${maxDescriptionLength}`)
    .nullable()
    .optional(),
  saveCard: z.boolean({ error: 'Must be true or false' }).optional(),
});

export const refundSchema = z.strictObject({
  amountCents,
  reason: z
    .string({ error: 'Reason is required' })
    .trim()
    .min(1, 'Reason is required')
    .max(maxRefundReasonLength, `Max character length is ${maxRefundReasonLength}`),
});

/**
 * Who may use the payment routes: a signed-in user of a verified company; admin, staff and user
 * take payments, cancel and refund, compliance only reads (the same groups as customers).
 * Put on each route, not on `/payments/*`, which would also cover the gateway's public webhook.
 */
const paymentAccess = customerAccessGuard();

async function answerPayment(c: Context<AppEnv>, paymentId: string, position?: bigint) {
  await waitForReadModels(c, position);
  const state = await ownPayment(c.var.deps, c.var.caller.companyId, paymentId);
  return describePayment(c.var.deps, state);
}

/** The caller as the origin of a command: company, actor, request id. */
export const origin = (c: Context<AppEnv>) => ({
  companyId: c.var.caller.companyId,
  actorId: c.var.caller.userId,
  correlationId: c.var.requestId,
});

export const paymentRoutes: Feature = () =>
  new Hono<AppEnv>()
    .post(
      '/payments',
      describeRoute(createdDescription('Take a card payment on a terminal', paymentSchema)),
      paymentAccess,
      idempotent,
      jsonBody(newPaymentSchema),
      async (c) => {
        const body = c.req.valid('json');
        const { paymentId, position } = await requestPayment(c.var.deps, {
          ...origin(c),
          terminalId: body.terminalId,
          amountCents: body.amountCents,
          currency: body.currency,
          customerId: body.customerId ?? null,
          description: body.description || null,
          saveCard: body.saveCard === true,
        });
        return c.json(await answerPayment(c, paymentId, position), 201);
      },
    )
    .get(
      '/payments/:id',
      describeRoute(answerDescription('One payment', 200, paymentSchema)),
      paymentAccess,
      async (c) => c.json(await answerPayment(c, c.req.param('id')), 200),
    )
    .post(
      '/payments/:id/cancel',
      describeRoute(answerDescription('Cancel a payment', 200, paymentSchema)),
      paymentAccess,
      idempotent,
      async (c) => {
        const paymentId = c.req.param('id');
        const outcome = await cancelPayment(c.var.deps, { ...origin(c), paymentId });
        return c.json(await answerPayment(c, paymentId, outcome.position), 200);
      },
    )
    .post(
      '/payments/:id/refunds',
      describeRoute(createdDescription('Refund a payment', paymentSchema)),
      paymentAccess,
      idempotent,
      jsonBody(refundSchema),
      async (c) => {
        const paymentId = c.req.param('id');
        const key = c.req.header('Idempotency-Key');
        const { companyId, userId } = c.var.caller;
        const outcome = await refundPayment(c.var.deps, {
          ...origin(c),
          paymentId,
          ...c.req.valid('json'),
          refundId: refundIdFor(
            key === undefined ? undefined : `${companyId}\n${userId}\n${paymentId}\n${key}`,
          ),
        }).catch(async (error: unknown) => {
          // The refusal is recorded: the balance and the transactions show it once this answers.
          if (error instanceof RefundRefusedError) await waitForReadModels(c, error.position);
          throw error;
        });
        return c.json(await answerPayment(c, paymentId, outcome.position), 201);
      },
    );
