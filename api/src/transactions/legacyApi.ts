import type { TransactionFilter } from '@issuer/projections';
import { Hono } from 'hono';
import { z } from 'zod';
import { customerAccess } from '../customers/access';
import { type AppEnv, type Feature, queryParams } from '../http';
import { answerDescription, describeRoute } from '../http/openapiSpec';
import { transactionList, transactionSchema } from './api';
import { idParam, maxPageRows } from './listParams';

/**
 * The seed client's `GET /api/contacts-app/transactions` (seed §7, "route params"), answered from
 * the same read model as `GET /api/transactions`: `id` is the view (all, payments, refunds),
 * `customerId` narrows it to one customer (the customer's Transactions dialog), `q` or
 * `searchText` searches. The newest first, at most a thousand.
 */
const views = { all: undefined, payments: ['payment'], refunds: ['refund'] } as const;
const legacyQuerySchema = z.strictObject({
  id: z.enum(Object.keys(views) as [keyof typeof views]).optional(),
  customerId: idParam.optional(),
  q: z.string().max(200).optional(),
  searchText: z.string().max(200).optional(),
});

export const legacyTransactionRoutes: Feature = () =>
  new Hono<AppEnv>()
    .use('/contacts-app/transactions', ...customerAccess)
    .get(
      '/contacts-app/transactions',
      describeRoute(
        answerDescription('Transactions by view (seed client)', 200, z.array(transactionSchema)),
      ),
      queryParams(legacyQuerySchema),
      async (c) => {
        const { id, customerId, q, searchText } = c.req.valid('query');
        const kind = views[id ?? 'all'];
        const search = q ?? searchText;
        const filter: TransactionFilter = {
          ...(kind ? { kind } : {}),
          ...(customerId ? { customerId } : {}),
          ...(search ? { q: search } : {}),
        };
        return transactionList(c, { range: [0, maxPageRows - 1] }, filter);
      },
    );
