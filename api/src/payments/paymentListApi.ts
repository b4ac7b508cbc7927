import {
  listPayments,
  type PaymentRow,
  type PaymentSortField,
  paymentSortFields,
  paymentStatuses,
} from '@issuer/projections';
import { Hono } from 'hono';
import { z } from 'zod';
import { customerAccessGuard } from '../customers/access';
import { type AppEnv, type Feature, jsonEncoded, queryParams } from '../http';
import { describeRoute, listDescription } from '../http/openapiSpec';
import {
  idParam,
  listWindow,
  maxPageRows,
  oneOrMany,
  rangeParam,
  setContentRange,
  sortParam,
} from '../transactions/listParams';
import { type PaymentResource, paymentSchema } from './paymentView';

const moneyMoved = new Set(['captured', 'partially_refunded', 'refunded']);

/** A payment as the API shows it (the contract's Payment resource). */
export function paymentResource(row: PaymentRow): PaymentResource {
  const { companyId: _companyId, position: _position, ...resource } = row;
  return {
    ...resource,
    refundableCents: moneyMoved.has(row.status) ? row.amountCents - row.refundedCents : 0,
  };
}

export const paymentFilterSchema = z.strictObject({
  q: z.string().max(200, 'Max character length is 200').optional(),
  status: oneOrMany(z.enum(paymentStatuses)).optional(),
  terminalId: idParam.optional(),
  customerId: idParam.optional(),
  id: z.array(idParam).max(maxPageRows).optional(),
});

const sortFields = Object.keys(paymentSortFields) as [PaymentSortField, ...PaymentSortField[]];
const listQuerySchema = z.strictObject({
  sort: sortParam(sortFields).optional(),
  range: rangeParam.optional(),
  filter: jsonEncoded(paymentFilterSchema).optional(),
});

/**
 * `GET /api/payments`: react-admin's getList/getMany, newest first by default, with
 * `Content-Range: payments a-b/total`. `filter.status: "pending"` is the Pending Payments view
 * (with `terminalId` for one terminal's).
 */
export const paymentListRoutes: Feature = () =>
  new Hono<AppEnv>()
    // On the route, not `use`: W1's POST /payments shares the path.
    .get(
      '/payments',
      describeRoute(listDescription('List payments', paymentSchema)),
      customerAccessGuard(),
      queryParams(listQuerySchema),
      async (c) => {
        const query = c.req.valid('query');
        const window = listWindow(query, 'requestedAt');
        const list = await listPayments(c.var.deps.pool, {
          companyId: c.var.caller.companyId,
          ...window,
          filter: query.filter ?? {},
        });
        setContentRange(c, 'payments', window.range.start, list.rows.length, list.total);
        return c.json(list.rows.map(paymentResource), 200);
      },
    );
