import { notFound } from '@issuer/events';
import {
  type EtransferListRow,
  type EtransferSortField,
  etransferKinds,
  etransferSortFields,
  etransferStatuses,
  etransferViews,
  getEtransfer,
  listEtransfers,
} from '@issuer/projections';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { customerAccessGuard } from '../customers/access';
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
import { amountCents, origin } from '../payments/api';
import { purposeSchema } from '../payments/paymentView';
import {
  idParam,
  listWindow,
  maxPageRows,
  oneOrMany,
  rangeParam,
  setContentRange,
  sortParam,
} from '../transactions/listParams';
import { maxMatchReasonLength, maxMessageLength, maxReferenceLength } from './businessLogic';
import {
  cancelEtransfer,
  isEtransferId,
  matchEtransfer,
  requestMoney,
  sendPayout,
} from './etransferCommands';

const customerId = z
  .string({ error: 'Choose a customer' })
  .trim()
  .min(1, 'Choose a customer')
  .max(100, 'Unknown customer');
const text = (max: number) =>
  z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, `Max character length is ${max}`)
    .nullable()
    .optional();

export const requestSchema = z.strictObject({
  customerId,
  amountCents,
  message: text(maxMessageLength),
  reference: text(maxReferenceLength),
  expiresAt: z.iso
    .datetime({ offset: true, error: 'Must be a date and time (ISO 8601)' })
    .nullable()
    .optional(),
});
export const payoutSchema = z.strictObject({
  customerId,
  amountCents,
  message: text(maxMessageLength),
});
export const matchSchema = z.strictObject({
  customerId,
  reason: z
    .string({ error: 'Reason is required' })
    .trim()
    .min(1, 'Reason is required')
    .max(maxMatchReasonLength, `Max character length is ${maxMatchReasonLength}`),
});

export const etransferFilterSchema = z.strictObject({
  q: z.string().max(200, 'Max character length is 200').optional(),
  view: z.enum(etransferViews).optional(),
  status: oneOrMany(z.enum(etransferStatuses)).optional(),
  kind: oneOrMany(z.enum(etransferKinds)).optional(),
  customerId: idParam.optional(),
  id: z.array(idParam).max(maxPageRows).optional(),
});
const sortFields = Object.keys(etransferSortFields) as [
  EtransferSortField,
  ...EtransferSortField[],
];
const listQuerySchema = z.strictObject({
  sort: sortParam(sortFields).optional(),
  range: rangeParam.optional(),
  filter: jsonEncoded(etransferFilterSchema).optional(),
});

/** Admin, staff and user send and match e-transfers; compliance reads (as with payments). */
const access = customerAccessGuard();

/** The E-transfer resource, as every e-transfer route answers it. */
export const etransferSchema = z
  .strictObject({
    id: z.string(),
    kind: z.enum(etransferKinds),
    status: z.enum(etransferStatuses),
    customerId: z
      .string()
      .nullable()
      .meta({ description: 'Null until an incoming one is matched' }),
    customerName: z.string().nullable(),
    email: z.string(),
    amountCents: z.int(),
    currency: z.literal('CAD'),
    message: z.string().nullable(),
    reference: z.string().nullable(),
    requestedBy: z.string().nullable(),
    matchedBy: z.string().nullable(),
    matchedByUser: z.string().nullable(),
    matchReason: z.string().nullable(),
    failureReason: z.string().nullable(),
    invoiceId: z
      .string()
      .nullable()
      .meta({ description: 'The invoice a billing request collects' }),
    purpose: purposeSchema,
    createdAt: z.string(),
    expiresAt: z.string().nullable(),
    completedAt: z.string().nullable(),
  })
  .meta({ id: 'Etransfer' });
export type EtransferResource = z.infer<typeof etransferSchema>;

/** The E-transfer resource. */
export function etransferResource(row: EtransferListRow): EtransferResource {
  const { companyId: _companyId, position: _position, ...resource } = row;
  return resource;
}

async function answer(c: Context<AppEnv>, etransferId: string, position?: bigint) {
  await waitForReadModels(c, position);
  const row = isEtransferId(etransferId)
    ? await getEtransfer(c.var.deps.pool, c.var.caller.companyId, etransferId)
    : undefined;
  if (!row) throw notFound('E-transfer');
  return etransferResource(row);
}

/**
 * `/api/etransfers`: money requests, payouts, the list (react-admin: views all, requested,
 * deposited, sent, unmatched), one e-transfer, cancel and the manual match. Put the access check
 * on each route: `/etransfers/webhooks/*` is the provider's, public and signed.
 */
export const etransferRoutes: Feature = () =>
  new Hono<AppEnv>()
    .post(
      '/etransfers/requests',
      describeRoute(createdDescription('Request money by e-transfer', etransferSchema)),
      access,
      idempotent,
      jsonBody(requestSchema),
      async (c) => {
        const body = c.req.valid('json');
        const { etransferId, position } = await requestMoney(c.var.deps, {
          ...origin(c),
          customerId: body.customerId,
          amountCents: body.amountCents,
          message: body.message || null,
          reference: body.reference || null,
          expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
        });
        return c.json(await answer(c, etransferId, position), 201);
      },
    )
    .post(
      '/etransfers/payouts',
      describeRoute(createdDescription('Pay out by e-transfer', etransferSchema)),
      access,
      idempotent,
      jsonBody(payoutSchema),
      async (c) => {
        const body = c.req.valid('json');
        const { etransferId, position } = await sendPayout(c.var.deps, {
          ...origin(c),
          customerId: body.customerId,
          amountCents: body.amountCents,
          message: body.message || null,
        });
        return c.json(await answer(c, etransferId, position), 201);
      },
    )
    .get(
      '/etransfers',
      describeRoute(listDescription('List e-transfers', etransferSchema)),
      access,
      queryParams(listQuerySchema),
      async (c) => {
        const query = c.req.valid('query');
        const window = listWindow(query, 'createdAt');
        const list = await listEtransfers(c.var.deps.pool, {
          companyId: c.var.caller.companyId,
          ...window,
          filter: query.filter ?? {},
        });
        setContentRange(c, 'etransfers', window.range.start, list.rows.length, list.total);
        return c.json(list.rows.map(etransferResource), 200);
      },
    )
    .get(
      '/etransfers/:id',
      describeRoute(answerDescription('One e-transfer', 200, etransferSchema)),
      access,
      async (c) => c.json(await answer(c, c.req.param('id')), 200),
    )
    .post(
      '/etransfers/:id/cancel',
      describeRoute(answerDescription('Cancel a money request', 200, etransferSchema)),
      access,
      idempotent,
      async (c) => {
        const etransferId = c.req.param('id');
        const outcome = await cancelEtransfer(c.var.deps, { ...origin(c), etransferId });
        return c.json(await answer(c, etransferId, outcome.position), 200);
      },
    )
    .post(
      '/etransfers/:id/match',
      describeRoute(
        answerDescription('Match an incoming e-transfer to a customer', 200, etransferSchema),
      ),
      access,
      idempotent,
      jsonBody(matchSchema),
      async (c) => {
        const etransferId = c.req.param('id');
        const outcome = await matchEtransfer(c.var.deps, {
          ...origin(c),
          etransferId,
          ...c.req.valid('json'),
        });
        return c.json(await answer(c, etransferId, outcome.position), 200);
      },
    );

const legacyViews = z.enum(etransferViews);

/** The seed client's `GET /api/contacts-app/etransfers`: `id` is the view; the same read model. */
export const legacyEtransferRoutes: Feature = () =>
  new Hono<AppEnv>().get(
    '/contacts-app/etransfers',
    describeRoute(
      answerDescription('E-transfers by view (seed client)', 200, z.array(etransferSchema)),
    ),
    access,
    queryParams(
      z.strictObject({
        id: legacyViews.optional(),
        customerId: idParam.optional(),
        q: z.string().max(200).optional(),
        searchText: z.string().max(200).optional(),
      }),
    ),
    async (c) => {
      const { id, customerId: customer, q, searchText } = c.req.valid('query');
      const search = q ?? searchText;
      const list = await listEtransfers(c.var.deps.pool, {
        companyId: c.var.caller.companyId,
        sort: { field: 'createdAt', order: 'DESC' },
        range: { start: 0, end: maxPageRows - 1 },
        filter: {
          view: id ?? 'all',
          ...(customer ? { customerId: customer } : {}),
          ...(search ? { q: search } : {}),
        },
      });
      return c.json(list.rows.map(etransferResource), 200);
    },
  );
