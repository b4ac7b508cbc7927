import { notFound, streamCategories, streamName } from '@issuer/events';
import {
  type CompanyListRow,
  type CompanySortField,
  companySortFields,
  getAvailableBalances,
  listCompanies,
} from '@issuer/projections';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { authenticate, requireRole } from '../auth/authenticate';
import { hasControlCharacters, printableOnlyMessage } from '../auth/storableJson';
import { centsToCad } from '../auth/userObject';
import { type CompanyCommand, companyDecider } from '../companies/businessLogic';
import {
  type AppEnv,
  executeCommand,
  type Feature,
  idempotent,
  jsonBody,
  jsonEncoded,
  pathParams,
  queryParams,
} from '../http';
import { answerDescription, describeRoute, listDescription } from '../http/openapiSpec';
import { type CompanyHistoryEntry, companyDecisions, companyHistory } from './companyHistory';
import { operatorRole } from './operator';

const maxPageSize = 500;
const sortFields = Object.keys(companySortFields) as [CompanySortField, ...CompanySortField[]];
const flag = z.union([z.boolean(), z.literal(1), z.literal(0)]).transform((value) => !!value);

/** react-admin's list contract: `sort=["name","ASC"]&range=[0,24]&filter={"q":"..."}`. */
const listQuery = z.strictObject({
  sort: jsonEncoded(z.tuple([z.enum(sortFields), z.enum(['ASC', 'DESC'])])).optional(),
  range: jsonEncoded(
    z
      .tuple([z.number().int().min(0), z.number().int().min(0)])
      .refine(([start, end]) => end >= start, 'The range must end at or after its start')
      .refine(
        ([start, end]) => end - start < maxPageSize,
        `A page holds at most ${maxPageSize} rows`,
      ),
  ).optional(),
  filter: jsonEncoded(
    z.strictObject({
      q: z
        .string()
        .max(200)
        .refine((q) => !hasControlCharacters(q), printableOnlyMessage)
        .optional(),
      verified: flag.optional(),
      isIssuer: flag.optional(),
    }),
  ).optional(),
});

const companyPath = z.strictObject({ id: z.uuid('Unknown company') });
const issuerSchema = z.strictObject({
  isIssuer: z.boolean({ error: 'isIssuer must be true or false' }),
});
/** Suspending, reinstating and revoking a verification say why: the company's history keeps it. */
const decisionSchema = z.strictObject({
  reason: z
    .string({ error: 'Give a reason' })
    .trim()
    .min(1, 'Give a reason')
    .max(500, 'Max character length is 500')
    .refine((reason) => !hasControlCharacters(reason), printableOnlyMessage),
});
const decisionCommands = {
  suspend: 'SuspendCompany',
  reinstate: 'ReinstateCompany',
  'revoke-verification': 'RevokeVerification',
} as const;

/** A company as the operator's react-admin list and show pages read it. */
const operatorCompanySchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    symbol: z.string(),
    verified: z.boolean(),
    isIssuer: z.boolean(),
    suspended: z.boolean(),
    suspensionReason: z.string().nullable(),
    terminalCount: z.int(),
    fiatBalanceCad: z.number().meta({ description: 'The ledger’s available balance, in dollars' }),
    registeredAt: z.string(),
    contactEmail: z
      .string()
      .nullable()
      .meta({ description: 'The first admin’s; null until the users read model has them' }),
  })
  .meta({ id: 'OperatorCompany' });

const companyHistorySchema = z.strictObject({
  id: z.string(),
  entries: z.array(
    z.strictObject({
      version: z.int().meta({ description: 'The company stream’s revision' }),
      type: z.enum(companyDecisions),
      at: z.string(),
      actor: z.strictObject({ id: z.string().nullable(), email: z.string().nullable() }),
      reason: z.string().nullable(),
    }) satisfies z.ZodType<CompanyHistoryEntry>,
  ),
});

function companyRecord(company: CompanyListRow): z.infer<typeof operatorCompanySchema> {
  return {
    id: company.companyId,
    name: company.name,
    symbol: company.symbol,
    verified: company.verified,
    isIssuer: company.isIssuer,
    suspended: company.suspended,
    suspensionReason: company.suspensionReason,
    terminalCount: company.terminals.length,
    fiatBalanceCad: centsToCad(company.fiatBalanceCents),
    registeredAt: company.registeredAt,
    contactEmail: company.contactEmail,
  };
}

/** The balance shown is the ledger's available balance, not the companies read model's. */
async function withLedgerBalances(c: Context<AppEnv>, rows: readonly CompanyListRow[]) {
  const balances = await getAvailableBalances(
    c.var.deps.pool,
    rows.map((row) => row.companyId),
  );
  return rows.map((row) => ({
    ...row,
    fiatBalanceCents: balances.get(row.companyId) ?? 0n,
  }));
}

async function companyOrNotFound(c: Context<AppEnv>, companyId: string) {
  const { rows } = await listCompanies(c.var.deps.pool, {
    sort: { field: 'id', order: 'ASC' },
    range: { start: 0, end: 0 },
    filter: { companyId },
  });
  const [company] = await withLedgerBalances(c, rows);
  if (!company) throw notFound('Company');
  return companyRecord(company);
}

/** The operator acts on the company named in the path: that company is the events' tenant. */
async function onCompany(c: Context<AppEnv>, companyId: string, command: CompanyCommand) {
  await executeCommand(c, {
    streamId: streamName(streamCategories.company, companyId),
    decider: companyDecider,
    command,
    companyId,
  });
  return companyOrNotFound(c, companyId);
}

/** An operator decision that names its reason (suspend, reinstate, revoke the verification). */
async function decide(
  c: Context<AppEnv>,
  type: (typeof decisionCommands)[keyof typeof decisionCommands],
  companyId: string,
  reason: string,
) {
  const record = await onCompany(c, companyId, {
    type,
    data: { operatorId: c.var.caller.userId, reason, now: c.var.deps.clock() },
  });
  // This process refuses (or admits) the company's tokens at once, before PostgreSQL's notice.
  c.var.deps.tokenStanding?.forget('');
  return record;
}

export const operatorRoutes: Feature = () =>
  new Hono<AppEnv>()
    .use('/operator/*', authenticate, requireRole(operatorRole))
    .get(
      '/operator/companies',
      describeRoute(listDescription('List companies', operatorCompanySchema)),
      queryParams(listQuery),
      async (c) => {
        const { sort, range, filter } = c.req.valid('query');
        const [field, order] = sort ?? ['name', 'ASC'];
        const [start, end] = range ?? [0, 24];
        const list = await listCompanies(c.var.deps.pool, {
          sort: { field, order },
          range: { start, end },
          filter: filter ?? {},
        });
        const shownEnd = start + list.rows.length - 1;
        c.header(
          'Content-Range',
          list.rows.length > 0
            ? `companies ${start}-${shownEnd}/${list.total}`
            : `companies */${list.total}`,
        );
        return c.json((await withLedgerBalances(c, list.rows)).map(companyRecord), 200);
      },
    )
    .get(
      '/operator/companies/:id',
      describeRoute(answerDescription('One company', 200, operatorCompanySchema)),
      pathParams(companyPath),
      async (c) => c.json(await companyOrNotFound(c, c.req.valid('param').id), 200),
    )
    .post(
      '/operator/companies/:id/verify',
      describeRoute(answerDescription('Verify a company', 200, operatorCompanySchema)),
      idempotent,
      pathParams(companyPath),
      async (c) => {
        const { userId } = c.var.caller;
        const record = await onCompany(c, c.req.valid('param').id, {
          type: 'VerifyCompany',
          data: { operatorId: userId, now: c.var.deps.clock() },
        });
        return c.json(record, 200);
      },
    )
    .post(
      '/operator/companies/:id/issuer',
      describeRoute(
        answerDescription('Grant or withdraw issuer status', 200, operatorCompanySchema),
      ),
      idempotent,
      pathParams(companyPath),
      jsonBody(issuerSchema),
      async (c) => {
        const { userId } = c.var.caller;
        const record = await onCompany(c, c.req.valid('param').id, {
          type: 'SetIssuerStatus',
          data: {
            isIssuer: c.req.valid('json').isIssuer,
            operatorId: userId,
            now: c.var.deps.clock(),
          },
        });
        return c.json(record, 200);
      },
    )
    .post(
      '/operator/companies/:id/suspend',
      describeRoute(answerDescription('Suspend a company', 200, operatorCompanySchema)),
      idempotent,
      pathParams(companyPath),
      jsonBody(decisionSchema),
      async (c) => {
        const { id } = c.req.valid('param');
        const { reason } = c.req.valid('json');
        return c.json(await decide(c, decisionCommands.suspend, id, reason), 200);
      },
    )
    .post(
      '/operator/companies/:id/reinstate',
      describeRoute(answerDescription('Lift a suspension', 200, operatorCompanySchema)),
      idempotent,
      pathParams(companyPath),
      jsonBody(decisionSchema),
      async (c) => {
        const { id } = c.req.valid('param');
        const { reason } = c.req.valid('json');
        return c.json(await decide(c, decisionCommands.reinstate, id, reason), 200);
      },
    )
    .post(
      '/operator/companies/:id/revoke-verification',
      describeRoute(answerDescription('Take a verification back', 200, operatorCompanySchema)),
      idempotent,
      pathParams(companyPath),
      jsonBody(decisionSchema),
      async (c) => {
        const { id } = c.req.valid('param');
        const { reason } = c.req.valid('json');
        const command = decisionCommands['revoke-verification'];
        return c.json(await decide(c, command, id, reason), 200);
      },
    )
    .get(
      '/operator/companies/:id/history',
      describeRoute(
        answerDescription('A company’s decisions, oldest first', 200, companyHistorySchema),
      ),
      pathParams(companyPath),
      async (c) => {
        const { id } = c.req.valid('param');
        const entries = await companyHistory(c.var.deps, c.var.caller.companyId, id);
        if (!entries) throw notFound('Company');
        return c.json({ id, entries }, 200);
      },
    );
