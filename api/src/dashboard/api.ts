import { investorStatuses } from '@issuer/events';
import {
  countCustomersByInvestorStatus,
  getAvailableBalance,
  listAuditJson,
  pendingPaymentsSummary,
} from '@issuer/projections';
import { Hono } from 'hono';
import { z } from 'zod';
import { auditReaders } from '../audit/api';
import { capTableAsOf } from '../capTable/capTableQueries';
import { customerAccessGuard } from '../customers/access';
import { type AppEnv, type Feature, queryParams } from '../http';
import { answerDescription, describeRoute } from '../http/openapiSpec';
import { monthlyRecurringRevenue } from '../subscriptions/queries';
import { fundingProgress, fundingSeriesDays } from './fundingProgress';

/** The most top holders and recent activity entries one answer carries. */
export const maxDashboardRows = 20;

/** `?top=5`: a whole number of rows from 1 to `maxDashboardRows`; a field's 400 names it. */
const rowCount = (what: string) =>
  z
    .string()
    .regex(/^\d{1,3}$/, `A whole number of ${what} from 1 to ${maxDashboardRows}`)
    .transform(Number)
    .pipe(
      z
        .int()
        .min(1, `At least 1 of the ${what}`)
        .max(maxDashboardRows, `At most ${maxDashboardRows} ${what}`),
    )
    .optional();

const dashboardQuerySchema = z.strictObject({
  top: rowCount('top holders'),
  activity: rowCount('activity entries'),
});

const cents = z.int().min(0).describe('An amount in CAD cents');

const activityEntry = z.strictObject({
  id: z.string().describe('The audit entry (its position)'),
  at: z.string(),
  actorId: z.string(),
  actorName: z.string().nullable(),
  actorIsOperator: z.boolean(),
  eventType: z.string(),
  resource: z.string(),
  recordId: z.string(),
  reason: z.string().nullable(),
  amountCents: z
    .int()
    .nullable()
    .describe('The amount the event names (a payment, a refund, a credit…), in CAD cents'),
});

export const dashboardSchema = z.strictObject({
  asOf: z.string().describe('When the figures were read'),
  currency: z.literal('CAD'),
  investorStatuses: z
    .array(z.strictObject({ status: z.enum(investorStatuses), count: z.int().min(0) }))
    .describe('Every investor status in workflow order, with how many customers are in it'),
  customers: z.int().min(0).describe('All customers: the sum of the status counts'),
  balance: z.strictObject({ availableCents: z.int() }),
  pendingPayments: z.strictObject({ count: z.int().min(0), amountCents: cents }),
  monthlyRecurringRevenue: z.strictObject({
    amountCents: cents,
    subscriptions: z.int().min(0).describe('Active and past-due subscriptions counted'),
  }),
  capTable: z.strictObject({
    holders: z.int().min(0),
    issued: z.int().min(0),
    authorized: z.int().min(0),
    shareClasses: z.array(
      z.strictObject({
        id: z.string(),
        name: z.string(),
        kind: z.string(),
        authorized: z.int().min(0),
        issued: z.int().min(0),
        percentOfIssued: z.number(),
      }),
    ),
    topHolders: z.array(
      z.strictObject({
        customerId: z.string(),
        name: z.string().nullable(),
        email: z.string().nullable(),
        shares: z.int().min(0),
        percentOwned: z.number(),
      }),
    ),
  }),
  recentActivity: z
    .array(activityEntry)
    .nullable()
    .describe('The newest audit entries; null for a role that may not read the audit log'),
  fundingProgress: z
    .strictObject({
      available: z.boolean().describe('True once the company has a funding round'),
      series: z
        .array(
          z.strictObject({
            at: z.string().describe('A UTC day (its midnight)'),
            raisedCents: cents.describe(
              'Raised by all rounds by the end of that day (by now today)',
            ),
          }),
        )
        .describe(`One point a day over the last ${fundingSeriesDays} days; empty with no round`),
    })
    .describe(
      'Money raised over time by funding rounds (orders whose money arrived, less refunds)',
    ),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

/**
 * `GET /api/dashboard`: the signed-in company's figures, each read from the read model its own
 * list answers from (customer counts, the ledger, payments, billing, the cap table, the audit
 * log, the token orders), so the dashboard never disagrees with the screens it summarises.
 */
export const dashboardRoutes: Feature = () =>
  new Hono<AppEnv>().get(
    '/dashboard',
    describeRoute(answerDescription('The company’s dashboard figures', 200, dashboardSchema)),
    customerAccessGuard(),
    queryParams(dashboardQuerySchema),
    async (c) => {
      const { top = 5, activity = 10 } = c.req.valid('query');
      const { companyId, roles } = c.var.caller;
      const { pool, clock } = c.var.deps;
      const now = clock();
      const readsAudit = roles.some((role) => (auditReaders as readonly string[]).includes(role));
      const [statuses, available, pending, recurring, table, audit, funding] = await Promise.all([
        countCustomersByInvestorStatus(pool, companyId),
        getAvailableBalance(pool, companyId),
        pendingPaymentsSummary(pool, companyId),
        monthlyRecurringRevenue(pool, companyId),
        capTableAsOf(pool, { companyId, asOf: now, offset: 0, limit: top, order: 'DESC' }),
        readsAudit
          ? listAuditJson(pool, {
              companyId,
              order: 'DESC',
              range: { start: 0, end: activity - 1 },
              filter: {},
            })
          : undefined,
        fundingProgress(pool, companyId, now),
      ]);
      const investorBreakdown = investorStatuses.map((status) => ({
        status,
        count: statuses.get(status) ?? 0,
      }));
      const answer: Dashboard = {
        asOf: now.toISOString(),
        currency: 'CAD',
        investorStatuses: investorBreakdown,
        customers: investorBreakdown.reduce((sum, row) => sum + row.count, 0),
        balance: { availableCents: Number(available) },
        pendingPayments: pending,
        monthlyRecurringRevenue: recurring,
        capTable: {
          holders: table.totals.holders,
          issued: table.totals.issued,
          authorized: table.totals.authorized,
          shareClasses: table.shareClasses.map(
            ({ id, name, kind, authorized, issued, percentOfIssued }) => ({
              id,
              name,
              kind,
              authorized,
              issued,
              percentOfIssued,
            }),
          ),
          topHolders: table.holders.map(({ customerId, name, email, shares, percentOwned }) => ({
            customerId,
            name,
            email,
            shares,
            percentOwned,
          })),
        },
        recentActivity: audit ? (JSON.parse(audit.json) as ActivityEntry[]).map(activityOf) : null,
        fundingProgress: funding,
      };
      return c.json(answer, 200);
    },
  );

type ActivityEntry = z.infer<typeof activityEntry>;

/** An audit entry's fields the activity shows (its details and event id stay in the audit log). */
function activityOf(entry: ActivityEntry): ActivityEntry {
  const { id, at, actorId, actorName, actorIsOperator, eventType, resource, recordId, reason } =
    entry;
  const { amountCents } = entry;
  return {
    id,
    at,
    actorId,
    actorName,
    actorIsOperator,
    eventType,
    resource,
    recordId,
    reason,
    amountCents,
  };
}
