import { forbidden } from '@issuer/events';
import { getAvailableBalance, getAvailableBalanceAsOf } from '@issuer/projections';
import { Hono } from 'hono';
import { z } from 'zod';
import { authenticate } from '../auth/authenticate';
import { type AppEnv, type Feature, queryParams } from '../http';
import { describeRoute } from '../http/openapiSpec';
import { isoTime } from '../transactions/listParams';

/** Roles that may see the balance as of a past time (an auditor's question). */
export const balanceAsOfReaders = ['admin', 'compliance'] as const;

const balanceQuerySchema = z.strictObject({ asOf: isoTime.optional() });

/**
 * The company's available CAD balance from the ledger: now (one row), or as of a time (the
 * running balance of the last line posted at or before it, one index lookup).
 */
export const balanceRoutes: Feature = () =>
  new Hono<AppEnv>().get(
    '/balance',
    describeRoute({ summary: 'The company’s balance' }),
    authenticate,
    queryParams(balanceQuerySchema),
    async (c) => {
      const { asOf } = c.req.valid('query');
      const { companyId, roles } = c.var.caller;
      const { pool } = c.var.deps;
      if (asOf === undefined) {
        const availableCents = await getAvailableBalance(pool, companyId);
        return c.json({ currency: 'CAD', availableCents: Number(availableCents), asOf: null }, 200);
      }
      if (!roles.some((role) => (balanceAsOfReaders as readonly string[]).includes(role))) {
        throw forbidden();
      }
      const availableCents = await getAvailableBalanceAsOf(pool, companyId, asOf);
      return c.json(
        { currency: 'CAD', availableCents: Number(availableCents), asOf: asOf.toISOString() },
        200,
      );
    },
  );
