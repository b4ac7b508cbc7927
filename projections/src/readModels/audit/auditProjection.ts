import type { PoolClient } from 'pg';
import type { Projection } from '../../projection';
import { type AuditRow, auditEventTypes, toAuditRow } from './auditRows';
import { auditChangesTrigger, auditMigration, auditTables } from './schema';

/** The filter dimensions whose running numbers each row keeps, and the value a row has in each. */
const dimensions = {
  all: () => '',
  actor: (row: AuditRow) => row.actorId,
  type: (row: AuditRow) => row.eventType,
  record: (row: AuditRow) => recordKey(row.resource, row.recordId),
} as const;
type Dimension = keyof typeof dimensions;

export const recordKey = (resource: string, recordId: string) => `${resource}/${recordId}`;

interface Counter {
  total: number;
  lastAt: Date;
  lastPosition: bigint;
}

const counterKey = (companyId: string, dimension: Dimension, value: string) =>
  JSON.stringify([companyId, dimension, value]);

/**
 * The audit log. Per batch: load the running totals of the dimension values it touches, number
 * its rows in order, insert them and store the new totals. A company's `at` never goes back (an
 * event recorded a moment before one of lower position takes the later time), so dates map to
 * positions by index. Events at or before a company's last position are skipped: a replay
 * changes nothing.
 */
export const auditProjection: Projection = {
  name: 'audit',
  handles: auditEventTypes,
  tables: auditTables,
  async migrate(client) {
    await client.query(auditMigration);
    await client.query(auditChangesTrigger);
  },
  async apply(events, client) {
    const rows = events.flatMap((event) => toAuditRow(event) ?? []);
    if (rows.length === 0) return;
    const counters = await loadCounters(client, rows);
    const changed = new Set<string>();
    const records: unknown[][] = [];
    for (const row of rows) {
      const all = counters.get(counterKey(row.companyId, 'all', ''));
      if (all && all.lastPosition >= row.position) continue;
      const at = all && all.lastAt > row.at ? all.lastAt : row.at;
      const numbers = (Object.keys(dimensions) as Dimension[]).map((dimension) => {
        const key = counterKey(row.companyId, dimension, dimensions[dimension](row));
        const next = (counters.get(key)?.total ?? 0) + 1;
        counters.set(key, { total: next, lastAt: at, lastPosition: row.position });
        changed.add(key);
        return next;
      });
      records.push([
        row.companyId,
        row.position.toString(),
        row.eventId,
        row.eventType,
        row.streamId,
        row.resource,
        row.recordId,
        row.actorId,
        at.toISOString(),
        row.occurredAt,
        row.reason,
        row.details,
        ...numbers,
      ]);
    }
    await insertRowsAndCounters(client, records, counterRecords(counters, changed));
  },
};

async function loadCounters(client: PoolClient, rows: readonly AuditRow[]) {
  const keys = new Set<string>();
  for (const row of rows) {
    for (const dimension of Object.keys(dimensions) as Dimension[]) {
      keys.add(counterKey(row.companyId, dimension, dimensions[dimension](row)));
    }
  }
  const { rows: stored } = await client.query<{
    key: string;
    total: string;
    last_at: Date;
    last_position: string;
  }>(
    `SELECT jsonb_build_array(c.company_id, c.dimension, c.value)::text AS key, c.total, c.last_at,
            c.last_position
       FROM audit_counts c JOIN jsonb_array_elements($1::jsonb) AS k
         ON c.company_id = k->>0 AND c.dimension = k->>1 AND c.value = k->>2`,
    [`[${[...keys].join(',')}]`],
  );
  const counters = new Map<string, Counter>();
  for (const row of stored) {
    counters.set(JSON.stringify(JSON.parse(row.key)), {
      total: Number(row.total),
      lastAt: row.last_at,
      lastPosition: BigInt(row.last_position),
    });
  }
  return counters;
}

/** The rows and their counters in one statement: one round trip per batch. */
async function insertRowsAndCounters(
  client: PoolClient,
  records: readonly unknown[][],
  counters: readonly unknown[][],
) {
  if (records.length === 0) return;
  await client.query(
    `WITH inserted AS (
       INSERT INTO audit_events (company_id, position, event_id, event_type, stream_id, resource,
         record_id, actor_id, at, occurred_at, reason, details, n_all, n_actor, n_type, n_record)
       SELECT r->>0, (r->>1)::bigint, r->>2, r->>3, r->>4, r->>5, r->>6, r->>7,
              (r->>8)::timestamptz, (r->>9)::timestamptz, r->>10, r->11, (r->>12)::bigint,
              (r->>13)::bigint, (r->>14)::bigint, (r->>15)::bigint
         FROM jsonb_array_elements($1::jsonb) AS r
       ON CONFLICT (company_id, position) DO NOTHING
     )
     INSERT INTO audit_counts (company_id, dimension, value, total, last_at, last_position)
     SELECT r->>0, r->>1, r->>2, (r->>3)::bigint, (r->>4)::timestamptz, (r->>5)::bigint
       FROM jsonb_array_elements($2::jsonb) AS r
     ON CONFLICT (company_id, dimension, value) DO UPDATE
       SET total = EXCLUDED.total, last_at = EXCLUDED.last_at,
           last_position = EXCLUDED.last_position`,
    [JSON.stringify(records), JSON.stringify(counters)],
  );
}

function counterRecords(
  counters: ReadonlyMap<string, Counter>,
  changed: ReadonlySet<string>,
): unknown[][] {
  return [...changed].map((key) => {
    const counter = counters.get(key) as Counter;
    return [
      ...(JSON.parse(key) as string[]),
      counter.total,
      counter.lastAt.toISOString(),
      counter.lastPosition.toString(),
    ];
  });
}
