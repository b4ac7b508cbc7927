import { notFound, shareClassKinds } from '@issuer/events';
import { parValuePattern } from '@issuer/events/rules';
import { stringify } from 'csv-stringify/sync';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { customerAccessGuard } from '../customers/access';
import { neutralizeFormula } from '../customers/csvFormulas';
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
  csvDescription,
  describeRoute,
  listDescription,
} from '../http/openapiSpec';
import { origin } from '../payments/api';
import {
  idParam,
  isoTime,
  listWindow,
  maxPageRows,
  rangeParam,
  setContentRange,
  sortParam,
} from '../transactions/listParams';
import {
  createShareClass,
  isShareClassId,
  issueShares,
  transferShares,
  updateShareClass,
} from './capTableCommands';
import {
  capTableAnswerSchema,
  capTableAsOf,
  type ExportRow,
  getShareClass,
  issuanceRowSchema,
  listMovements,
  listShareClasses,
  type MovementKind,
  movementSortFields,
  type ShareClassRow,
  shareClassRowSchema,
  shareClassSortFields,
  streamCapTable,
  transferRowSchema,
} from './capTableQueries';

export const maxShareClassNameLength = 100;
/** Up to 10^15 shares: exact in a JSON number and in PostgreSQL's bigint. */
export const maxShares = 1_000_000_000_000_000;

const shareCount = (min: number) =>
  z
    .int({ error: 'A whole number of shares' })
    .min(min, `At least ${min}`)
    .max(maxShares, `At most ${maxShares}`);

export const shareClassSchema = z.strictObject({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(maxShareClassNameLength, `Max character length is ${maxShareClassNameLength}`),
  kind: z.enum(shareClassKinds, { error: `One of ${shareClassKinds.join(', ')}` }),
  votesPerShare: z.int({ error: 'A whole number' }).min(0, 'At least 0').max(1000, 'At most 1000'),
  authorized: shareCount(1),
  parValue: z
    .string({ error: 'A decimal amount in CAD, such as 0.0001' })
    .regex(parValuePattern, 'A decimal amount in CAD, such as 0.0001')
    .optional(),
  liquidationPreferenceMultiple: z
    .number({ error: 'A number such as 1 or 1.5' })
    .min(0, 'At least 0')
    .max(100, 'At most 100')
    .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-9, 'At most 2 decimals')
    .optional(),
  seniority: z
    .int({ error: 'A whole number' })
    .min(0, 'At least 0')
    .max(100, 'At most 100')
    .optional(),
});

const chosen = (what: string) =>
  z
    .string({ error: `Choose a ${what}` })
    .trim()
    .min(1, `Choose a ${what}`)
    .max(100, `Unknown ${what}`);
const reason = z
  .string({ error: 'Say why' })
  .trim()
  .min(1, 'Say why')
  .max(500, 'Max character length is 500');

export const issuanceSchema = z.strictObject({
  shareClassId: chosen('share class'),
  customerId: chosen('holder'),
  shares: shareCount(1),
  date: isoTime.optional(),
  reason,
});

export const transferSchema = z.strictObject({
  shareClassId: chosen('share class'),
  fromCustomerId: chosen('holder'),
  toCustomerId: chosen('holder'),
  shares: shareCount(1),
  date: isoTime.optional(),
  reason,
});

const fieldsOf = <Fields extends Record<string, string>>(fields: Fields) =>
  Object.keys(fields) as [keyof Fields & string, ...(keyof Fields & string)[]];

const shareClassListSchema = z.strictObject({
  sort: sortParam(fieldsOf(shareClassSortFields)).optional(),
  range: rangeParam.optional(),
  filter: jsonEncoded(
    z.strictObject({ id: z.array(idParam).max(maxPageRows).optional() }),
  ).optional(),
});
const movementListSchema = z.strictObject({
  sort: sortParam(fieldsOf(movementSortFields)).optional(),
  range: rangeParam.optional(),
  filter: jsonEncoded(
    z.strictObject({
      customerId: idParam.optional(),
      shareClassId: idParam.optional(),
      id: z.array(idParam).max(maxPageRows).optional(),
    }),
  ).optional(),
});
const capTableSchema = z.strictObject({
  asOf: isoTime.optional(),
  sort: sortParam(['shares']).optional(),
  range: rangeParam.optional(),
});
const exportSchema = z.strictObject({ asOf: isoTime.optional() });

const access = customerAccessGuard();

const defaultClassTerms = { parValue: '0', liquidationPreferenceMultiple: 1, seniority: 0 };

async function answerShareClass(c: Context<AppEnv>, id: string, position?: bigint) {
  await waitForReadModels(c, position);
  const found = isShareClassId(id)
    ? await getShareClass(c.var.deps.pool, c.var.caller.companyId, id)
    : undefined;
  if (!found) throw notFound('Share class');
  return found;
}

async function answerMovement(
  c: Context<AppEnv>,
  kind: MovementKind,
  id: string,
  position?: bigint,
) {
  await waitForReadModels(c, position);
  const { rows } = await listMovements(
    c.var.deps.pool,
    c.var.caller.companyId,
    kind,
    { sort: { field: 'date', order: 'DESC' }, range: { start: 0, end: 0 } },
    { id: [id] },
  );
  if (!rows[0]) throw notFound(kind === 'issuance' ? 'Issuance' : 'Transfer');
  return rows[0];
}

function movementList(kind: MovementKind, resource: string) {
  return async (c: Context<AppEnv>, query: z.infer<typeof movementListSchema>) => {
    const window = listWindow(query, 'date');
    const list = await listMovements(
      c.var.deps.pool,
      c.var.caller.companyId,
      kind,
      window,
      query.filter ?? {},
    );
    setContentRange(c, resource, window.range.start, list.rows.length, list.total);
    return c.json(list.rows, 200);
  };
}

function exportCsv(classes: ShareClassRow[], batches: AsyncGenerator<unknown>) {
  const encoder = new TextEncoder();
  const header = [
    'customerId',
    'name',
    'email',
    'shares',
    'percentOwned',
    ...classes.map((c) => neutralizeFormula(c.name)),
  ];
  const cells = (row: ExportRow) => [
    row.customerId,
    neutralizeFormula(row.name ?? ''),
    neutralizeFormula(row.email ?? ''),
    row.shares,
    row.percentOwned,
    ...classes.map((c) => row.byClass[c.id] ?? 0),
  ];
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(stringify([header])));
      }
      const next = await batches.next();
      if (next.done) {
        controller.close();
        return;
      }
      const { rows } = next.value as { rows: ExportRow[] };
      controller.enqueue(encoder.encode(stringify(rows.map(cells))));
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}

/**
 * `/api/share-classes`, `/api/issuances`, `/api/transfers` (react-admin lists with
 * `Content-Range`) and `/api/cap-table` (`?asOf=`), with its streamed `export.csv`.
 */
export const capTableRoutes: Feature = () =>
  new Hono<AppEnv>()
    .get(
      '/share-classes',
      describeRoute(listDescription('List share classes', shareClassRowSchema)),
      access,
      queryParams(shareClassListSchema),
      async (c) => {
        const query = c.req.valid('query');
        const window = listWindow(query, 'createdAt');
        const list = await listShareClasses(
          c.var.deps.pool,
          c.var.caller.companyId,
          window,
          query.filter?.id,
        );
        setContentRange(c, 'share-classes', window.range.start, list.rows.length, list.total);
        return c.json(list.rows, 200);
      },
    )
    .post(
      '/share-classes',
      describeRoute(createdDescription('Create a share class', shareClassRowSchema)),
      access,
      idempotent,
      jsonBody(shareClassSchema),
      async (c) => {
        const body = c.req.valid('json');
        const { shareClassId, position } = await createShareClass(c.var.deps, {
          ...origin(c),
          ...defaultClassTerms,
          ...body,
        });
        return c.json(await answerShareClass(c, shareClassId, position), 201);
      },
    )
    .get(
      '/share-classes/:id',
      describeRoute(answerDescription('One share class', 200, shareClassRowSchema)),
      access,
      async (c) => c.json(await answerShareClass(c, c.req.param('id')), 200),
    )
    .put(
      '/share-classes/:id',
      describeRoute(answerDescription('Change a share class', 200, shareClassRowSchema)),
      access,
      idempotent,
      jsonBody(shareClassSchema),
      async (c) => {
        const shareClassId = c.req.param('id');
        const outcome = await updateShareClass(c.var.deps, {
          ...origin(c),
          ...defaultClassTerms,
          ...c.req.valid('json'),
          shareClassId,
        });
        return c.json(await answerShareClass(c, shareClassId, outcome.position), 200);
      },
    )
    .get(
      '/issuances',
      describeRoute(listDescription('List share issuances', issuanceRowSchema)),
      access,
      queryParams(movementListSchema),
      (c) => movementList('issuance', 'issuances')(c, c.req.valid('query')),
    )
    .post(
      '/issuances',
      describeRoute(createdDescription('Issue shares to a holder', issuanceRowSchema)),
      access,
      idempotent,
      jsonBody(issuanceSchema),
      async (c) => {
        const { issuanceId, position } = await issueShares(c.var.deps, {
          ...origin(c),
          ...c.req.valid('json'),
        });
        return c.json(await answerMovement(c, 'issuance', issuanceId, position), 201);
      },
    )
    .get(
      '/issuances/:id',
      describeRoute(answerDescription('One issuance', 200, issuanceRowSchema)),
      access,
      async (c) => c.json(await answerMovement(c, 'issuance', c.req.param('id')), 200),
    )
    .get(
      '/transfers',
      describeRoute(listDescription('List share transfers', transferRowSchema)),
      access,
      queryParams(movementListSchema),
      (c) => movementList('transfer', 'transfers')(c, c.req.valid('query')),
    )
    .post(
      '/transfers',
      describeRoute(createdDescription('Transfer shares between holders', transferRowSchema)),
      access,
      idempotent,
      jsonBody(transferSchema),
      async (c) => {
        const { transferId, position } = await transferShares(c.var.deps, {
          ...origin(c),
          ...c.req.valid('json'),
        });
        return c.json(await answerMovement(c, 'transfer', transferId, position), 201);
      },
    )
    .get(
      '/transfers/:id',
      describeRoute(answerDescription('One transfer', 200, transferRowSchema)),
      access,
      async (c) => c.json(await answerMovement(c, 'transfer', c.req.param('id')), 200),
    )
    .get(
      '/cap-table',
      describeRoute(
        answerDescription(
          'The cap table (as of a time with asOf); holders paged by range',
          200,
          capTableAnswerSchema,
        ),
      ),
      access,
      queryParams(capTableSchema),
      async (c) => {
        const query = c.req.valid('query');
        const [start, end] = query.range ?? [0, 99];
        const table = await capTableAsOf(c.var.deps.pool, {
          companyId: c.var.caller.companyId,
          asOf: query.asOf ?? c.var.deps.clock(),
          offset: start,
          limit: end - start + 1,
          order: query.sort?.[1] ?? 'DESC',
        });
        setContentRange(c, 'holders', start, table.holders.length, table.totals.holders);
        return c.json(table, 200);
      },
    )
    .get(
      '/cap-table/export.csv',
      describeRoute(csvDescription('Export the cap table as CSV')),
      access,
      queryParams(exportSchema),
      async (c) => {
        const asOf = c.req.valid('query').asOf ?? c.var.deps.clock();
        const batches = streamCapTable(c.var.deps.pool, c.var.caller.companyId, asOf);
        const first = await batches.next();
        const classes = first.done ? [] : (first.value as { classes: ShareClassRow[] }).classes;
        const day = asOf.toISOString().slice(0, 10);
        return c.body(exportCsv(classes, batches), 200, {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="cap-table-${day}.csv"`,
        });
      },
    );
