import type { Pool } from 'pg';
import { isoText } from '../isoText';
import { type Queryable, streamRows, type Where, whereBuilder } from '../money/listing';
import { recordKey } from './auditProjection';

export interface AuditFilter {
  actorId?: string;
  eventType?: readonly string[];
  /** The record: its resource and id, together. */
  record?: { resource: string; recordId: string };
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
}

export interface AuditListQuery {
  companyId: string;
  order: 'ASC' | 'DESC';
  /** Inclusive, zero-based, as react-admin sends it. */
  range: { start: number; end: number };
  filter: AuditFilter;
}

/** The amount a money event names (every such event calls it `amountCents`), else null. */
const amountOfDetails = `CASE WHEN jsonb_typeof(a.details -> 'amountCents') = 'number'
  THEN a.details -> 'amountCents' END`;

/** An audit entry as the API shows it, built by PostgreSQL. */
const auditJson = `json_build_object('id', a.position::text, 'at', ${isoText('a.at')},
  'occurredAt', ${isoText('a.occurred_at')}, 'actorId', a.actor_id,
  'actorName', (SELECT u.display_name FROM users u WHERE u.user_id = a.actor_id),
  'actorIsOperator', EXISTS (SELECT 1 FROM users u
    WHERE u.user_id = a.actor_id AND 'operator' = ANY(u.roles)),
  'eventType', a.event_type, 'resource', a.resource, 'recordId', a.record_id,
  'reason', a.reason, 'eventId', a.event_id, 'details', a.details,
  'amountCents', ${amountOfDetails})`;

export interface AuditEntry {
  id: string;
  at: string;
  occurredAt: string;
  actorId: string;
  actorName: string | null;
  /** The platform operator acted (verified the company, say): shown by role, not by name. */
  actorIsOperator: boolean;
  eventType: string;
  resource: string;
  recordId: string;
  reason: string | null;
  eventId: string;
  details: unknown;
  /** What a payment, refund, credit… moved, in CAD cents; null for other events. */
  amountCents: number | null;
}

/** The positions a date range covers: [low, high), either end open. */
interface Bounds {
  low: bigint | null;
  high: bigint | null;
}

/** The first position at or after `at` (none: past the end), by the (company, at) index. */
async function positionAt(db: Queryable, companyId: string, at: Date): Promise<bigint | null> {
  const { rows } = await db.query<{ position: string }>(
    `SELECT position FROM audit_events WHERE company_id = $1 AND at >= $2
      ORDER BY at, position LIMIT 1`,
    [companyId, at],
  );
  return rows[0] ? BigInt(rows[0].position) : null;
}

async function boundsOf(db: Queryable, companyId: string, filter: AuditFilter): Promise<Bounds> {
  const low = filter.from ? await positionAt(db, companyId, filter.from) : null;
  const high = filter.to ? await positionAt(db, companyId, filter.to) : null;
  // From past the last event: nothing matches.
  if (filter.from && low === null) return { low: 0n, high: 0n };
  return { low, high };
}

/** The one dimension a filter narrows (or `all`), whose running numbers give exact totals. */
function countedDimension(filter: AuditFilter) {
  const narrowed = [filter.actorId, filter.eventType, filter.record].filter(
    (value) => value !== undefined,
  );
  if (narrowed.length > 1) return undefined;
  if (filter.actorId) return { column: 'actor_id', n: 'n_actor', values: [[filter.actorId]] };
  if (filter.eventType)
    return { column: 'event_type', n: 'n_type', values: filter.eventType.map((type) => [type]) };
  if (filter.record)
    return {
      column: 'resource, record_id',
      n: 'n_record',
      values: [[filter.record.resource, filter.record.recordId]],
    };
  return { column: '', n: 'n_all', values: [[]] as string[][] };
}

function whereOf(companyId: string, filter: AuditFilter, bounds: Bounds): Where {
  const where = whereBuilder(companyId);
  if (filter.actorId) where.add((p) => `actor_id = ${p}`, filter.actorId);
  if (filter.eventType) where.add((p) => `event_type = ANY(${p})`, filter.eventType);
  if (filter.record) {
    where.add(
      (resource, id) => `resource = ${resource} AND record_id = ${id}`,
      filter.record.resource,
      filter.record.recordId,
    );
  }
  if (bounds.low !== null) where.add((p) => `position >= ${p}`, bounds.low.toString());
  if (bounds.high !== null) where.add((p) => `position < ${p}`, bounds.high.toString());
  return where.build();
}

/**
 * The exact number of matches. One narrowed dimension (or none): per value, the running number
 * of its last row before the range's end minus that before its start, each an index lookup.
 * Several: counted.
 */
async function totalOf(
  db: Queryable,
  companyId: string,
  filter: AuditFilter,
  bounds: Bounds,
): Promise<number> {
  const counted = countedDimension(filter);
  if (!counted) {
    const where = whereOf(companyId, filter, bounds);
    const { rows } = await db.query<{ total: string }>(
      `SELECT count(*) AS total FROM audit_events WHERE ${where.sql}`,
      where.params,
    );
    return Number(rows[0]?.total ?? 0);
  }
  let total = 0;
  for (const value of counted.values) {
    const params: unknown[] = [companyId, ...value];
    const matches = counted.column
      .split(', ')
      .filter(Boolean)
      .map((column, i) => `${column} = $${i + 2}`);
    const before = async (position: bigint | null) => {
      if (position === null) return undefined;
      const { rows } = await db.query<{ n: string }>(
        `SELECT ${counted.n} AS n FROM audit_events
          WHERE ${['company_id = $1', ...matches, `position < $${params.length + 1}`].join(' AND ')}
          ORDER BY position DESC LIMIT 1`,
        [...params, position.toString()],
      );
      return Number(rows[0]?.n ?? 0);
    };
    const end = (await before(bounds.high)) ?? (await storedTotal(db, companyId, counted, value));
    const start = (await before(bounds.low)) ?? 0;
    total += Math.max(0, end - start);
  }
  return total;
}

const dimensionOf = { n_all: 'all', n_actor: 'actor', n_type: 'type', n_record: 'record' } as const;

async function storedTotal(
  db: Queryable,
  companyId: string,
  counted: { n: string },
  value: readonly string[],
): Promise<number> {
  const dimension = dimensionOf[counted.n as keyof typeof dimensionOf];
  const stored =
    dimension === 'all'
      ? ''
      : dimension === 'record'
        ? recordKey(value[0] ?? '', value[1] ?? '')
        : (value[0] ?? '');
  const { rows } = await db.query<{ total: string }>(
    'SELECT total FROM audit_counts WHERE company_id = $1 AND dimension = $2 AND value = $3',
    [companyId, dimension, stored],
  );
  return Number(rows[0]?.total ?? 0);
}

export interface AuditJsonList {
  /** The page as the API answers it: a JSON array of audit entries. */
  json: string;
  shown: number;
  total: number;
}

/**
 * A page of the audit log, newest or oldest first, and the exact total. A page past the middle
 * is read from the far end in reverse, so the last page costs what the first does.
 */
export async function listAuditJson(db: Queryable, query: AuditListQuery): Promise<AuditJsonList> {
  const bounds = await boundsOf(db, query.companyId, query.filter);
  const total = await totalOf(db, query.companyId, query.filter, bounds);
  const { start, end } = query.range;
  const limit = Math.max(0, end - start + 1);
  if (start >= total || limit === 0) return { json: '[]', shown: 0, total };
  const where = whereOf(query.companyId, query.filter, bounds);
  const reverse = start > total / 2;
  const order = reverse ? (query.order === 'ASC' ? 'DESC' : 'ASC') : query.order;
  const offset = reverse ? Math.max(0, total - 1 - end) : start;
  const count = reverse ? total - start - offset : limit;
  const n = where.params.length;
  const { rows } = await db.query<{ json: string }>(
    // The skipped rows are read from the filter's index only; the page's rows alone are built.
    `SELECT ${auditJson}::text AS json FROM (
       SELECT position FROM audit_events WHERE ${where.sql}
        ORDER BY position ${order} LIMIT $${n + 1} OFFSET $${n + 2}
     ) page JOIN audit_events a ON a.company_id = $1 AND a.position = page.position
     ORDER BY a.position ${order}`,
    [...where.params, Math.min(count, limit), offset],
  );
  const page = rows.map((row) => row.json);
  if (reverse) page.reverse();
  return { json: `[${page.join(',')}]`, shown: page.length, total };
}

export async function getAuditEntry(
  db: Queryable,
  companyId: string,
  id: string,
): Promise<AuditEntry | undefined> {
  const { rows } = await db.query<{ json: AuditEntry }>(
    `SELECT ${auditJson} AS json FROM audit_events a WHERE a.company_id = $1 AND a.position = $2`,
    [companyId, id],
  );
  return rows[0]?.json;
}

/** Every matching entry in order, in batches through a server cursor (the CSV export). */
export async function* streamAudit(
  pool: Pool,
  query: Omit<AuditListQuery, 'range'>,
): AsyncGenerator<AuditEntry[]> {
  const bounds = await boundsOf(pool, query.companyId, query.filter);
  const where = whereOf(query.companyId, query.filter, bounds);
  const spec = {
    table: 'audit_events a',
    columns: `${auditJson} AS json`,
    id: 'a.position',
    sortColumns: { position: 'a.position' },
  };
  for await (const batch of streamRows<{ json: AuditEntry }, 'position'>(pool, spec, where, {
    field: 'position',
    order: query.order,
  })) {
    yield batch.map((row) => row.json);
  }
}

/** A company's last position in the log (0 when it has none). */
export async function lastAuditPosition(db: Queryable, companyId: string): Promise<bigint> {
  const { rows } = await db.query<{ last_position: string }>(
    `SELECT last_position FROM audit_counts WHERE company_id = $1 AND dimension = 'all' AND value = ''`,
    [companyId],
  );
  return BigInt(rows[0]?.last_position ?? 0);
}

export interface ChangedRecords {
  resource: string;
  ids: string[];
}

/** What changed after `after` up to `upTo`: record ids by resource, at most `limit` events read. */
export async function auditChangesSince(
  db: Queryable,
  companyId: string,
  after: bigint,
  upTo: bigint,
  limit: number,
): Promise<{ changes: ChangedRecords[]; last: bigint; complete: boolean }> {
  const { rows } = await db.query<{ resource: string; record_id: string; position: string }>(
    `SELECT resource, record_id, position FROM audit_events
      WHERE company_id = $1 AND position > $2 AND position <= $3 ORDER BY position LIMIT $4`,
    [companyId, after.toString(), upTo.toString(), limit],
  );
  const byResource = new Map<string, Set<string>>();
  for (const row of rows) {
    const ids = byResource.get(row.resource) ?? new Set<string>();
    ids.add(row.record_id);
    byResource.set(row.resource, ids);
  }
  const lastRow = rows.at(-1);
  return {
    changes: [...byResource].map(([resource, ids]) => ({ resource, ids: [...ids] })),
    last: lastRow ? BigInt(lastRow.position) : upTo,
    complete: rows.length < limit,
  };
}
