import { forbidden } from '@issuer/events';
import { getAvailableBalance, getAvailableBalanceAsOf } from '@issuer/projections';
import { Hono } from 'hono';
import { z } from 'zod';
import { authenticate } from '../auth/authenticate';
import { type AppEnv, type Feature, queryParams } from '../http';
import { answerDescription, describeRoute } from '../http/openapiSpec';
import { isoTime } from '../transactions/listParams';

/** Roles that may see the balance as of a past time (an auditor's question). */
export const balanceAsOfReaders = ['admin', 'compliance'] as const;

const balanceSchema = z
  .strictObject({
    currency: z.literal('CAD'),
    availableCents: z.int(),
    asOf: z.string().nullable().meta({ description: 'The time asked for; null for now' }),
  })
  .meta({ id: 'Balance' });
type Balance = z.infer<typeof balanceSchema>;

const balanceQuerySchema = z.strictObject({ asOf: isoTime.optional() });

/**
 * The company's available CAD balance from the ledger: now (one row), or as of a time (the
 * running balance of the last line posted at or before it, one index lookup).
 */
export const balanceRoutes: Feature = () =>
  new Hono<AppEnv>().get(
    '/balance',
    describeRoute(answerDescription('The company’s balance', 200, balanceSchema)),
    authenticate,
    queryParams(balanceQuerySchema),
    async (c) => {
      const { asOf } = c.req.valid('query');
      const { companyId, roles } = c.var.caller;
      const { pool } = c.var.deps;
      if (asOf === undefined) {
        const availableCents = await getAvailableBalance(pool, companyId);
        const now: Balance = {
          currency: 'CAD',
          availableCents: Number(availableCents),
          asOf: null,
        };
        return c.json(now, 200);
      }
      if (!roles.some((role) => (balanceAsOfReaders as readonly string[]).includes(role))) {
        throw forbidden();
      }
      const availableCents = await getAvailableBalanceAsOf(pool, companyId, asOf);
      const then: Balance = {
        currency: 'CAD',
        availableCents: Number(availableCents),
        asOf: asOf.toISOString(),
      };
      return c.json(then, 200);
    },
  );
