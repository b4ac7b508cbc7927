import { shareClassKind } from '@issuer/events';
import type { Pool, PoolClient } from 'pg';
import { z } from 'zod';

/** Queries of the cap table read model (capTableProjection.ts). Every one is per company. */

export const shareClassSortFields = {
  name: 'name',
  createdAt: 'created_at',
  seniority: 'seniority',
  authorized: 'authorized',
  issued: 'issued',
} as const;
export type ShareClassSortField = keyof typeof shareClassSortFields;

export const movementSortFields = {
  date: 'effective_at, m.revision',
  shares: 'shares',
} as const;
export type MovementSortField = keyof typeof movementSortFields;

interface Window<Field> {
  sort: { field: Field; order: 'ASC' | 'DESC' };
  range: { start: number; end: number };
}

const shareClassJson = (issued: string) => `json_build_object(
  'id', c.share_class_id, 'name', c.name, 'kind', c.kind, 'votesPerShare', c.votes_per_share,
  'parValue', c.par_value, 'liquidationPreferenceMultiple', c.liquidation_preference_multiple,
  'seniority', c.seniority, 'authorized', c.authorized, 'issued', ${issued},
  'available', c.authorized - ${issued},
  'createdAt', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'updatedAt', to_char(c.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

/** The ShareClass resource, as PostgreSQL builds it (`shareClassJson`). */
export const shareClassRowSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    kind: shareClassKind,
    votesPerShare: z.int(),
    parValue: z.string().meta({ description: 'A decimal amount in CAD, such as 0.0001' }),
    liquidationPreferenceMultiple: z.number(),
    seniority: z.int(),
    authorized: z.int(),
    issued: z.int(),
    available: z.int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ShareClass' });
export type ShareClassRow = z.infer<typeof shareClassRowSchema>;

export async function listShareClasses(
  pool: Pool,
  companyId: string,
  window: Window<ShareClassSortField>,
  ids?: readonly string[],
): Promise<{ rows: ShareClassRow[]; total: number }> {
  const column = shareClassSortFields[window.sort.field];
  const order = window.sort.order === 'ASC' ? 'ASC' : 'DESC';
  const { rows } = await pool.query<{ row: ShareClassRow; total: string }>(
    `SELECT ${shareClassJson('c.issued')} AS row, count(*) OVER () AS total
       FROM share_classes c
      WHERE c.company_id = $1 AND ($2::text[] IS NULL OR c.share_class_id = ANY($2))
      ORDER BY c.${column} ${order}, c.share_class_id
      LIMIT $3 OFFSET $4`,
    [companyId, ids ?? null, window.range.end - window.range.start + 1, window.range.start],
  );
  return { rows: rows.map((r) => r.row), total: Number(rows[0]?.total ?? 0) };
}

export async function getShareClass(pool: Pool, companyId: string, id: string) {
  const { rows } = await pool.query<{ row: ShareClassRow }>(
    `SELECT ${shareClassJson('c.issued')} AS row FROM share_classes c
      WHERE c.company_id = $1 AND c.share_class_id = $2`,
    [companyId, id],
  );
  return rows[0]?.row;
}

export type MovementKind = 'issuance' | 'transfer';

const movementCommon = {
  id: z.string(),
  shareClassId: z.string(),
  shareClassName: z.string(),
  shares: z.int(),
  date: z.string().meta({ description: 'When it takes effect' }),
  reason: z.string(),
  actor: z.string().meta({ description: 'The user who recorded it' }),
  actorEmail: z.string().nullable(),
  recordedAt: z.string(),
};
/** An issuance, as `listMovements` builds it. */
export const issuanceRowSchema = z
  .strictObject({
    ...movementCommon,
    customerId: z.string(),
    customerName: z.string().nullable(),
  })
  .meta({ id: 'Issuance' });
/** A transfer between holders, as `listMovements` builds it. */
export const transferRowSchema = z
  .strictObject({
    ...movementCommon,
    fromCustomerId: z.string(),
    fromCustomerName: z.string().nullable(),
    toCustomerId: z.string(),
    toCustomerName: z.string().nullable(),
  })
  .meta({ id: 'ShareTransfer' });
type MovementRow = z.infer<typeof issuanceRowSchema> | z.infer<typeof transferRowSchema>;
export interface MovementFilter {
  customerId?: string;
  shareClassId?: string;
  id?: readonly string[];
}

const customerName = (alias: string) =>
  `nullif(trim(${alias}.name || ' ' || ${alias}.last_name), '')`;

/** Issuances or transfers, newest first by default, with the names of the class and holders. */
export async function listMovements(
  pool: Pool,
  companyId: string,
  kind: MovementKind,
  window: Window<MovementSortField>,
  filter: MovementFilter,
) {
  const order = window.sort.order === 'ASC' ? 'ASC' : 'DESC';
  const columns = movementSortFields[window.sort.field]
    .split(', ')
    .map((column) => `${column.startsWith('m.') ? column : `m.${column}`} ${order}`)
    .join(', ');
  const { rows } = await pool.query<{ row: MovementRow; total: string }>(
    `SELECT json_build_object(
         'id', m.movement_id, 'shareClassId', m.share_class_id, 'shareClassName', c.name,
         ${kind === 'issuance' ? `'customerId', m.to_customer_id, 'customerName', ${customerName('t')},` : `'fromCustomerId', m.from_customer_id, 'fromCustomerName', ${customerName('f')}, 'toCustomerId', m.to_customer_id, 'toCustomerName', ${customerName('t')},`}
         'shares', m.shares,
         'date', to_char(m.effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'reason', m.reason, 'actor', m.actor_id,
         'actorEmail', u.email,
         'recordedAt', to_char(m.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
       ) AS row, count(*) OVER () AS total
       FROM share_movements m
       JOIN share_classes c ON c.share_class_id = m.share_class_id
       LEFT JOIN customers t ON t.customer_id = m.to_customer_id
       LEFT JOIN customers f ON f.customer_id = m.from_customer_id
       LEFT JOIN users u ON u.user_id = m.actor_id
      WHERE m.company_id = $1 AND m.kind = $2
        AND ($3::text IS NULL OR m.to_customer_id = $3 OR m.from_customer_id = $3)
        AND ($4::text IS NULL OR m.share_class_id = $4)
        AND ($5::text[] IS NULL OR m.movement_id = ANY($5))
      ORDER BY ${columns}, m.movement_id
      LIMIT $6 OFFSET $7`,
    [
      companyId,
      kind,
      filter.customerId ?? null,
      filter.shareClassId ?? null,
      filter.id ?? null,
      window.range.end - window.range.start + 1,
      window.range.start,
    ],
  );
  return { rows: rows.map((r) => r.row), total: Number(rows[0]?.total ?? 0) };
}

/** The last movement revision dated at or before `asOf` (-1: none): the as-of prefix. */
async function prefixRevision(db: Pool | PoolClient, companyId: string, asOf: Date) {
  const { rows } = await db.query<{ revision: string }>(
    `SELECT revision FROM share_movements WHERE company_id = $1 AND effective_at <= $2
      ORDER BY effective_at DESC, revision DESC LIMIT 1`,
    [companyId, asOf],
  );
  return Number(rows[0]?.revision ?? -1);
}

interface Base {
  /** The base's rows: `cap_table_holders` now, or a checkpoint's copy (revision -1: empty). */
  table: string;
  where: string;
  holders: number;
  /** Movements in (from, to] are added (sign 1) or taken away (sign -1). */
  from: number;
  to: number;
  sign: 1 | -1;
}

/** The nearest state the moment can start from: a checkpoint before it, or one after it (or now). */
async function nearestBase(
  db: Pool | PoolClient,
  companyId: string,
  prefix: number,
): Promise<Base> {
  const { rows } = await db.query<{ side: string; revision: string; holders: number }>(
    `(SELECT 'before' AS side, revision, holders FROM cap_table_checkpoints
       WHERE company_id = $1 AND revision <= $2 ORDER BY revision DESC LIMIT 1)
     UNION ALL
     (SELECT 'after', revision, holders FROM cap_table_checkpoints
       WHERE company_id = $1 AND revision > $2 ORDER BY revision LIMIT 1)
     UNION ALL
     SELECT 'now', revision, holders FROM cap_table_companies WHERE company_id = $1`,
    [companyId, prefix],
  );
  const before = rows.find((row) => row.side === 'before') ?? {
    revision: '-1',
    holders: 0,
  };
  const after = rows.find((row) => row.side === 'after');
  const now = rows.find((row) => row.side === 'now') ?? { revision: '-1', holders: 0 };
  const forward = prefix - Number(before.revision);
  const backwardTo = after ?? now;
  const backward = Number(backwardTo.revision) - prefix;
  if (forward < backward) {
    return checkpointBase(Number(before.revision), before.holders, prefix, 1);
  }
  if (after) return checkpointBase(Number(after.revision), after.holders, prefix, -1);
  return {
    table: 'cap_table_holders',
    where: 'b.company_id = $1',
    holders: now.holders,
    from: prefix,
    to: Number(now.revision),
    sign: -1,
  };
}

function checkpointBase(revision: number, holders: number, prefix: number, sign: 1 | -1): Base {
  return {
    table: 'cap_table_checkpoint_holders',
    where: `b.company_id = $1 AND b.revision = ${Math.trunc(revision)}`,
    holders,
    from: sign === 1 ? revision : prefix,
    to: sign === 1 ? prefix : revision,
    sign,
  };
}

/** The holders' totals at the base, corrected by the movements between it and the moment. */
function deltasSql(base: Base) {
  return `moves AS (
      SELECT to_customer_id AS customer_id, shares AS delta FROM share_movements
       WHERE company_id = $1 AND revision > $2 AND revision <= $3
      UNION ALL
      SELECT from_customer_id, -shares FROM share_movements
       WHERE company_id = $1 AND revision > $2 AND revision <= $3 AND from_customer_id IS NOT NULL
    ), d AS (
      SELECT customer_id, ${base.sign} * sum(delta) AS delta FROM moves GROUP BY customer_id
    ), adj AS (
      SELECT d.customer_id, coalesce(b.shares, 0) AS before, coalesce(b.shares, 0) + d.delta AS shares
        FROM d LEFT JOIN ${base.table} b ON ${base.where} AND b.customer_id = d.customer_id
    )`;
}

export interface HolderShares {
  customerId: string;
  shares: number;
}

async function holdersPage(
  db: Pool | PoolClient,
  companyId: string,
  base: Base,
  page: { offset: number; limit: number; order: 'ASC' | 'DESC' },
) {
  const order = page.order === 'ASC' ? 'ASC' : 'DESC';
  const { rows } = await db.query<{ rows: HolderShares[] | null; change: number }>(
    `WITH ${deltasSql(base)}, page AS (
       -- The base's first rows by index (as many more as there are corrected holders), less
       -- the corrected ones: never an anti-join over the whole base.
       SELECT t.customer_id, t.shares FROM (
         SELECT b.customer_id, b.shares FROM ${base.table} b
          WHERE ${base.where} AND b.shares > 0
          ORDER BY b.shares ${order}, b.customer_id LIMIT $4 + (SELECT count(*) FROM d)) t
        WHERE NOT EXISTS (SELECT 1 FROM d WHERE d.customer_id = t.customer_id)
       UNION ALL
       SELECT customer_id, shares FROM adj WHERE shares > 0
     )
     SELECT (SELECT json_agg(json_build_object('customerId', customer_id, 'shares', shares))
               FROM (SELECT * FROM page ORDER BY shares ${order}, customer_id LIMIT $5 OFFSET $6) p)
              AS rows,
            (SELECT count(*) FILTER (WHERE shares > 0) - count(*) FILTER (WHERE before > 0)
               FROM adj)::int AS change`,
    [companyId, base.from, base.to, page.offset + page.limit, page.limit, page.offset],
  );
  const row = rows[0];
  return { holders: row?.rows ?? [], total: base.holders + (row?.change ?? 0) };
}

export interface ClassAsOf extends ShareClassRow {
  percentOfIssued: number;
}

async function classesAsOf(db: Pool | PoolClient, companyId: string, prefix: number, asOf: Date) {
  const issued = `coalesce((SELECT m.issued_after FROM share_movements m
      WHERE m.company_id = c.company_id AND m.share_class_id = c.share_class_id
        AND m.kind = 'issuance' AND m.revision <= $2 ORDER BY m.revision DESC LIMIT 1), 0)`;
  const { rows } = await db.query<{ row: ShareClassRow; created_at: Date }>(
    `SELECT ${shareClassJson(issued)} AS row, c.created_at FROM share_classes c
      WHERE c.company_id = $1 ORDER BY c.seniority DESC, c.created_at, c.share_class_id`,
    [companyId, prefix],
  );
  return rows
    .filter((r) => r.created_at.getTime() <= asOf.getTime() || r.row.issued > 0)
    .map((r) => r.row);
}

async function classesOfHolders(
  db: Pool | PoolClient,
  companyId: string,
  customerIds: string[],
  prefix: number,
) {
  const { rows } = await db.query<{ customer_id: string; share_class_id: string; shares: string }>(
    `SELECT * FROM (
       SELECT DISTINCT ON (customer_id, share_class_id) customer_id, share_class_id, shares
         FROM cap_table_balances
        WHERE company_id = $1 AND customer_id = ANY($2) AND revision <= $3
        ORDER BY customer_id, share_class_id, revision DESC) latest
      WHERE shares > 0`,
    [companyId, customerIds, prefix],
  );
  return rows;
}

async function namesOf(db: Pool | PoolClient, customerIds: string[]) {
  const { rows } = await db.query<{ customer_id: string; name: string | null; email: string }>(
    `SELECT customer_id, ${customerName('c')} AS name, email FROM customers c
      WHERE customer_id = ANY($1)`,
    [customerIds],
  );
  return new Map(rows.map((row) => [row.customer_id, row]));
}

const percent = (part: number, whole: number) =>
  whole > 0 ? Math.round((part / whole) * 100 * 1e6) / 1e6 : 0;

/** `GET /cap-table`: the classes, one page of holders and the totals, as of a time. */
export const capTableAnswerSchema = z
  .strictObject({
    asOf: z.string(),
    shareClasses: z.array(shareClassRowSchema.extend({ percentOfIssued: z.number() })),
    holders: z.array(
      z.strictObject({
        customerId: z.string(),
        name: z.string().nullable(),
        email: z.string().nullable(),
        shares: z.int(),
        percentOwned: z.number(),
        byClass: z.array(
          z.strictObject({
            shareClassId: z.string(),
            name: z.string(),
            shares: z.int(),
            percentOfClass: z.number(),
          }),
        ),
      }),
    ),
    totals: z.strictObject({
      authorized: z.int(),
      issued: z.int(),
      available: z.int(),
      holders: z.int().meta({ description: 'Holders with shares, all pages' }),
    }),
  })
  .meta({ id: 'CapTable' });

export interface CapTableQuery {
  companyId: string;
  asOf: Date;
  offset: number;
  limit: number;
  order: 'ASC' | 'DESC';
}

/**
 * The cap table as of a moment: share classes with the shares issued by then, one page of
 * holders (largest first) with their shares per class and % owned, and the totals. Reads in one
 * repeatable-read snapshot so the page, the classes and the totals agree.
 */
export async function capTableAsOf(
  pool: Pool,
  query: CapTableQuery,
): Promise<z.infer<typeof capTableAnswerSchema>> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { companyId, asOf } = query;
    const prefix = await prefixRevision(client, companyId, asOf);
    const base = await nearestBase(client, companyId, prefix);
    const page = await holdersPage(client, companyId, base, query);
    const ids = page.holders.map((holder) => holder.customerId);
    const [classes, byClass, names] = [
      await classesAsOf(client, companyId, prefix, asOf),
      await classesOfHolders(client, companyId, ids, prefix),
      await namesOf(client, ids),
    ];
    await client.query('COMMIT');
    const issued = classes.reduce((sum, c) => sum + c.issued, 0);
    const authorized = classes.reduce((sum, c) => sum + c.authorized, 0);
    return {
      asOf: asOf.toISOString(),
      shareClasses: classes.map((c) => ({ ...c, percentOfIssued: percent(c.issued, issued) })),
      holders: page.holders.map((holder) => ({
        customerId: holder.customerId,
        name: names.get(holder.customerId)?.name ?? null,
        email: names.get(holder.customerId)?.email ?? null,
        shares: Number(holder.shares),
        percentOwned: percent(Number(holder.shares), issued),
        byClass: classes.flatMap((shareClass) => {
          const row = byClass.find(
            (held) =>
              held.customer_id === holder.customerId && held.share_class_id === shareClass.id,
          );
          if (!row) return [];
          const shares = Number(row.shares);
          return [
            {
              shareClassId: shareClass.id,
              name: shareClass.name,
              shares,
              percentOfClass: percent(shares, shareClass.issued),
            },
          ];
        }),
      })),
      totals: { authorized, issued, available: authorized - issued, holders: page.total },
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export interface ExportRow {
  customerId: string;
  name: string | null;
  email: string | null;
  shares: number;
  percentOwned: number;
  byClass: Record<string, number>;
}

/**
 * Every holder as of a moment, largest first, a batch at a time through a cursor (the CSV
 * export): the classes first, then the rows.
 */
export async function* streamCapTable(
  pool: Pool,
  companyId: string,
  asOf: Date,
  batchSize = 1000,
): AsyncGenerator<{ classes: ShareClassRow[] } | { rows: ExportRow[] }> {
  const client = await pool.connect();
  let finished = false;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const prefix = await prefixRevision(client, companyId, asOf);
    const classes = await classesAsOf(client, companyId, prefix, asOf);
    const issued = classes.reduce((sum, c) => sum + c.issued, 0);
    yield { classes };
    await client.query(
      `DECLARE cap_table_export NO SCROLL CURSOR FOR
       SELECT h.customer_id, ${customerName('c')} AS name, c.email, h.total, h.by_class
         FROM (SELECT customer_id, sum(shares) AS total, jsonb_object_agg(share_class_id, shares) AS by_class
                 FROM (SELECT DISTINCT ON (customer_id, share_class_id) customer_id, share_class_id, shares
                         FROM cap_table_balances WHERE company_id = $1 AND revision <= $2
                        ORDER BY customer_id, share_class_id, revision DESC) latest
                WHERE shares > 0 GROUP BY customer_id) h
         LEFT JOIN customers c ON c.customer_id = h.customer_id
        ORDER BY h.total DESC, h.customer_id`,
      [companyId, prefix],
    );
    for (;;) {
      const { rows } = await client.query<{
        customer_id: string;
        name: string | null;
        email: string | null;
        total: string;
        by_class: Record<string, number>;
      }>(`FETCH ${Math.trunc(batchSize)} FROM cap_table_export`);
      if (rows.length === 0) break;
      yield {
        rows: rows.map((row) => ({
          customerId: row.customer_id,
          name: row.name,
          email: row.email,
          shares: Number(row.total),
          percentOwned: percent(Number(row.total), issued),
          byClass: row.by_class,
        })),
      };
    }
    await client.query('COMMIT');
    finished = true;
  } finally {
    if (!finished) await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}
