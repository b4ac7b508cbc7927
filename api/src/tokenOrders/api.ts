import { notFound } from '@issuer/events';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { issuerAccessGuard } from '../fundingRounds/access';
import {
  type AppEnv,
  type Feature,
  idempotent,
  jsonBody,
  jsonEncoded,
  queryParams,
  waitForReadModels,
} from '../http';
import {
  answerDescription,
  createdDescription,
  describeRoute,
  listDescription,
} from '../http/openapiSpec';
import { origin } from '../payments/api';
import {
  idParam,
  listWindow,
  maxPageRows,
  oneOrMany,
  rangeParam,
  setContentRange,
  sortParam,
} from '../transactions/listParams';
import { type OrderStatus, orderStatuses } from './order';
import {
  cancelOrder,
  isOrderId,
  placeOrder,
  refundOrder,
  retryDistribution,
} from './orderCommands';
import {
  asSeedOrder,
  getOrder,
  listOrders,
  orderResourceSchema,
  orderSortFields,
  seedOrderSchema,
} from './queries';

/** Up to 10^12 tokens in one order: its amount stays an exact number of cents. */
export const maxOrderTokens = 1_000_000_000_000;

const id = (what: string) =>
  z
    .string({ error: `Choose a ${what}` })
    .trim()
    .min(1, `Choose a ${what}`)
    .max(100, `Unknown ${what}`);

export const orderSchema = z.strictObject({
  roundId: id('funding round'),
  customerId: id('customer'),
  tokens: z
    .int({ error: 'A whole number of tokens' })
    .min(1, 'At least 1 token')
    .max(maxOrderTokens, `At most ${maxOrderTokens} tokens`),
  payment: z.discriminatedUnion(
    'method',
    [
      z.strictObject({ method: z.literal('terminal'), terminalId: id('terminal') }),
      z.strictObject({ method: z.literal('etransfer') }),
    ],
    {
      error: 'How the order is paid: {method: "terminal", terminalId} or {method: "etransfer"}',
    },
  ),
});

const reasonSchema = z.strictObject({
  reason: z
    .string({ error: 'Must be text' })
    .trim()
    .max(500, 'Max character length is 500')
    .optional(),
});

const listSchema = z.strictObject({
  sort: sortParam(Object.keys(orderSortFields) as [keyof typeof orderSortFields]).optional(),
  range: rangeParam.optional(),
  filter: jsonEncoded(
    z.strictObject({
      id: z.array(idParam).max(maxPageRows).optional(),
      status: oneOrMany(z.enum(orderStatuses)).optional(),
      roundId: idParam.optional(),
      customerId: idParam.optional(),
    }),
  ).optional(),
});

const access = issuerAccessGuard();

async function answerOrder(c: Context<AppEnv>, orderId: string, position?: bigint) {
  await waitForReadModels(c, position);
  const found = isOrderId(orderId)
    ? await getOrder(c.var.deps.pool, c.var.caller.companyId, orderId)
    : undefined;
  if (!found) throw notFound('Token order');
  return found;
}

/**
 * `/api/token-orders` (a react-admin list), one order, place, `/:id/cancel` (before the money
 * arrived), `/:id/refund` (after, before distribution), `/:id/retry-distribution` (a held
 * distribution); the seed's `/api/contacts-app/nftorders` lists the same orders.
 */
export const tokenOrderRoutes: Feature = () =>
  new Hono<AppEnv>()
    .get(
      '/token-orders',
      describeRoute(listDescription('List token orders', orderResourceSchema)),
      access,
      queryParams(listSchema),
      async (c) => {
        const query = c.req.valid('query');
        const window = listWindow(query, 'placedAt');
        const list = await listOrders(c.var.deps.pool, c.var.caller.companyId, window, {
          ...query.filter,
          status: query.filter?.status as OrderStatus[] | undefined,
        });
        setContentRange(c, 'token-orders', window.range.start, list.rows.length, list.total);
        return c.json(list.rows, 200);
      },
    )
    .post(
      '/token-orders',
      describeRoute(
        createdDescription('Order tokens of an open round for a customer', orderResourceSchema),
      ),
      access,
      idempotent,
      jsonBody(orderSchema),
      async (c) => {
        const body = c.req.valid('json');
        const { orderId, position } = await placeOrder(c.var.deps, {
          ...origin(c),
          roundId: body.roundId,
          customerId: body.customerId,
          tokens: body.tokens,
          payment: body.payment,
        });
        return c.json(await answerOrder(c, orderId, position), 201);
      },
    )
    .get(
      '/token-orders/:id',
      describeRoute(answerDescription('One token order', 200, orderResourceSchema)),
      access,
      async (c) => c.json(await answerOrder(c, c.req.param('id')), 200),
    )
    .post(
      '/token-orders/:id/cancel',
      describeRoute(
        answerDescription(
          'Cancel a token order before its funds were received',
          200,
          orderResourceSchema,
        ),
      ),
      access,
      idempotent,
      jsonBody(reasonSchema),
      async (c) => {
        const orderId = c.req.param('id');
        const outcome = await cancelOrder(c.var.deps, {
          ...origin(c),
          orderId,
          reason: c.req.valid('json').reason || 'Cancelled by the issuer',
        });
        return c.json(await answerOrder(c, orderId, outcome.position), 200);
      },
    )
    .post(
      '/token-orders/:id/refund',
      describeRoute(
        answerDescription(
          'Refund a token order whose funds were received and tokens not distributed',
          200,
          orderResourceSchema,
        ),
      ),
      access,
      idempotent,
      jsonBody(reasonSchema),
      async (c) => {
        const orderId = c.req.param('id');
        const outcome = await refundOrder(c.var.deps, {
          ...origin(c),
          orderId,
          reason: c.req.valid('json').reason || 'Token order refunded',
        });
        return c.json(await answerOrder(c, orderId, outcome.position), 200);
      },
    )
    .post(
      '/token-orders/:id/retry-distribution',
      describeRoute(
        answerDescription('Try a held token distribution again', 200, orderResourceSchema),
      ),
      access,
      idempotent,
      async (c) => {
        const orderId = c.req.param('id');
        const outcome = await retryDistribution(c.var.deps, { ...origin(c), orderId });
        return c.json(await answerOrder(c, orderId, outcome.position), 200);
      },
    )
    .get(
      '/contacts-app/nftorders',
      describeRoute(
        answerDescription(
          "The seed's NFT orders list: every token order",
          200,
          z.array(seedOrderSchema),
        ),
      ),
      access,
      async (c) => {
        const list = await listOrders(
          c.var.deps.pool,
          c.var.caller.companyId,
          { sort: { field: 'placedAt', order: 'DESC' }, range: { start: 0, end: maxPageRows - 1 } },
          {},
        );
        return c.json(list.rows.map(asSeedOrder), 200);
      },
    );
