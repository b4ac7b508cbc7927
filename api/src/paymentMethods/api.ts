import { notFound } from '@issuer/events';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { customerAccessGuard } from '../customers/access';
import { customerDecider } from '../customers/businessLogic';
import { customerStream } from '../customers/customerCommands';
import { type AppEnv, type Feature, foldStream, queryParams, waitForReadModels } from '../http';
import { answerDescription, describeRoute, listDescription } from '../http/openapiSpec';
import { origin } from '../payments/api';
import { setContentRange } from '../transactions/listParams';
import { isPaymentMethodId, removeCard } from './paymentMethodCommands';
import { cardById, customerCards, savedCardSchema } from './paymentMethodsProjection';

/** Admin, staff and user remove cards; compliance reads (as with payments). */
const access = customerAccessGuard();

const cardsQuery = z.strictObject({
  removed: z.enum(['true', 'false'], { error: 'true or false' }).optional(),
});

async function answerCard(c: Context<AppEnv>, paymentMethodId: string, position?: bigint) {
  await waitForReadModels(c, position);
  const card = isPaymentMethodId(paymentMethodId)
    ? await cardById(c.var.deps.pool, c.var.caller.companyId, paymentMethodId)
    : undefined;
  if (!card) throw notFound('Payment method');
  return card;
}

/**
 * A customer's saved cards (`/api/customers/:id/cards`, a react-admin list; removed ones with
 * `?removed=true`), one card, and its removal, recorded as CardRemoved (Stripe's detach).
 * The processor's token never leaves the write side.
 */
export const paymentMethodRoutes: Feature = () =>
  new Hono<AppEnv>()
    .get(
      '/customers/:id/cards',
      describeRoute(listDescription('A customer’s saved cards', savedCardSchema)),
      access,
      queryParams(cardsQuery),
      async (c) => {
        const customerId = c.req.param('id');
        const { companyId } = c.var.caller;
        const { state } = await foldStream(
          c.var.deps.store,
          customerStream(customerId),
          customerDecider,
        );
        if (state.status !== 'active' || state.companyId !== companyId) throw notFound('Customer');
        const rows = await customerCards(c.var.deps.pool, {
          companyId,
          customerId,
          includeRemoved: c.req.valid('query').removed === 'true',
        });
        setContentRange(c, 'cards', 0, rows.length, rows.length);
        return c.json(rows, 200);
      },
    )
    .get(
      '/payment-methods/:id',
      describeRoute(answerDescription('One saved card', 200, savedCardSchema)),
      access,
      async (c) => c.json(await answerCard(c, c.req.param('id')), 200),
    )
    .delete(
      '/payment-methods/:id',
      describeRoute(
        answerDescription('Remove a saved card', 200, savedCardSchema, 'The card, removed'),
      ),
      access,
      async (c) => {
        const paymentMethodId = c.req.param('id');
        const outcome = await removeCard(c.var.deps, { ...origin(c), paymentMethodId });
        return c.json(await answerCard(c, paymentMethodId, outcome.position), 200);
      },
    );
