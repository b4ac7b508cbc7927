import { notFound } from '@issuer/events';
import {
  getTransaction,
  listTransactionsJson,
  streamTransactions,
  type TransactionFilter,
  type TransactionRow,
  type TransactionSortField,
  transactionKinds,
  transactionSortFields,
  transactionStatuses,
} from '@issuer/projections';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { customerAccess } from '../customers/access';
import { type AppEnv, type Feature, jsonEncoded, pathParams, queryParams } from '../http';
import {
  answerDescription,
  csvDescription,
  describeRoute,
  listDescription,
} from '../http/openapiSpec';
import { purposeSchema } from '../payments/paymentView';
import { transactionsCsv } from './csvExport';
import {
  idParam,
  isoTime,
  maxPageRows,
  oneOrMany,
  rangeParam,
  setContentRange,
  sortParam,
} from './listParams';

/** Kinds and statuses the API takes in filters: today's and those the funding work adds. */
const kindValues = ['payment', 'refund', 'etransfer', 'payout'] as const;
const statusValues = ['succeeded', 'pending', 'failed'] as const;
const maxCents = 99_999_999;

export const transactionFilterSchema = z
  .strictObject({
    q: z.string().max(200, 'Max character length is 200').optional(),
    kind: oneOrMany(z.enum(kindValues)).optional(),
    status: oneOrMany(z.enum(statusValues)).optional(),
    customerId: idParam.optional(),
    terminalId: idParam.optional(),
    createdFrom: isoTime.optional(),
    createdTo: isoTime.optional(),
    amountMin: z.int('Whole cents, 0 or more').min(0).max(maxCents).optional(),
    amountMax: z.int('Whole cents, 0 or more').min(0).max(maxCents).optional(),
    id: z.array(idParam).max(maxPageRows).optional(),
  })
  .refine(({ createdFrom, createdTo }) => !createdFrom || !createdTo || createdFrom <= createdTo, {
    path: ['createdTo'],
    message: 'Must not be before createdFrom',
  })
  .refine(
    ({ amountMin, amountMax }) =>
      amountMin === undefined || amountMax === undefined || amountMin <= amountMax,
    { path: ['amountMax'], message: 'Must not be below amountMin' },
  );

const sortFields = Object.keys(transactionSortFields) as [
  TransactionSortField,
  ...TransactionSortField[],
];
const listQuerySchema = z.strictObject({
  sort: sortParam(sortFields).optional(),
  range: rangeParam.optional(),
  filter: jsonEncoded(transactionFilterSchema).optional(),
});
const exportQuerySchema = listQuerySchema.omit({ range: true });
const transactionPath = z.strictObject({ id: idParam });

export const defaultTransactionSort = { field: 'createdAt', order: 'DESC' } as const;

/** The contract's Transaction resource: one money movement as every transaction route answers it. */
export const transactionSchema = z
  .strictObject({
    id: z.string(),
    kind: z.enum(transactionKinds),
    status: z.enum(transactionStatuses),
    amountCents: z.int(),
    netCents: z.int().meta({
      description: 'Signed: + for money in, − for money out; 0 when a refund failed',
    }),
    currency: z.literal('CAD'),
    paymentId: z.string().meta({ description: 'The payment or e-transfer it belongs to' }),
    refundReason: z.string().nullable(),
    customerId: z.string().nullable(),
    customerName: z.string().nullable(),
    terminalId: z.string().nullable(),
    terminalName: z.string().nullable(),
    description: z.string().nullable(),
    purpose: purposeSchema,
    cardBrand: z.string().nullable(),
    cardLast4: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'Transaction' });
export type TransactionResource = z.infer<typeof transactionSchema>;

/** A transaction as the API shows it (the contract's Transaction resource). */
export function transactionResource(row: TransactionRow): TransactionResource {
  const { companyId: _companyId, position: _position, ...resource } = row;
  return resource;
}

/**
 * react-admin's getList/getMany with `Content-Range: transactions a-b/total` and
 * `X-Total-Net-Cents`, the exact sum of netCents over every matching row. The body is the page's
 * JSON as PostgreSQL built it (the same resources `transactionResource` makes).
 */
export async function transactionList(
  c: Context<AppEnv>,
  query: { sort?: [TransactionSortField, 'ASC' | 'DESC']; range?: [number, number] },
  filter: TransactionFilter,
) {
  const [field, order] = query.sort ?? [defaultTransactionSort.field, defaultTransactionSort.order];
  const [start, end] = query.range ?? [0, filter.id ? Math.max(filter.id.length - 1, 0) : 24];
  const list = await listTransactionsJson(c.var.deps.pool, {
    companyId: c.var.caller.companyId,
    sort: { field, order },
    range: { start, end },
    filter,
  });
  setContentRange(c, 'transactions', start, list.shown, list.total);
  c.header('X-Total-Net-Cents', list.netCents.toString());
  return c.body(list.json, 200, { 'Content-Type': 'application/json' });
}

export const transactionRoutes: Feature = () =>
  new Hono<AppEnv>()
    .use('/transactions/*', ...customerAccess)
    .get(
      '/transactions',
      describeRoute(listDescription('List transactions', transactionSchema)),
      queryParams(listQuerySchema),
      async (c) => {
        const query = c.req.valid('query');
        return transactionList(c, query, query.filter ?? {});
      },
    )
    .get(
      '/transactions/export.csv',
      describeRoute(csvDescription('Export the matching transactions as CSV')),
      queryParams(exportQuerySchema),
      async (c) => {
        const query = c.req.valid('query');
        const [field, order] = query.sort ?? [
          defaultTransactionSort.field,
          defaultTransactionSort.order,
        ];
        const batches = streamTransactions(c.var.deps.pool, {
          companyId: c.var.caller.companyId,
          sort: { field, order },
          filter: query.filter ?? {},
        });
        return c.body(transactionsCsv(batches), 200, {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': 'attachment; filename="transactions.csv"',
        });
      },
    )
    .get(
      '/transactions/:id',
      describeRoute(answerDescription('One transaction', 200, transactionSchema)),
      pathParams(transactionPath),
      async (c) => {
        const row = await getTransaction(
          c.var.deps.pool,
          c.var.caller.companyId,
          c.req.valid('param').id,
        );
        if (!row) throw notFound('Transaction');
        return c.json(transactionResource(row), 200);
      },
    );
