import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@issuer/events';
import {
  type AuditFilter,
  auditEventTypes,
  auditProjection,
  listAuditJson,
  migrateProjections,
} from '@issuer/projections';
import type pg from 'pg';
import { allProjections } from '../../api/src/infrastructure';
import type { BenchOptions } from '../lib/options';
import { benchPostgres, withPool } from '../lib/postgres';
import { type Figure, figure } from '../lib/report';
import { elapsedMs, summarize } from '../lib/stats';

const SECTION = 'audit';
const EVENTS = 1_000_000;
const BATCH = 10_000;
const ACTORS = 20;
const RECORDS = 50_000;
const SAMPLES = 300;
const start = Date.parse('2026-01-01T00:00:00.000Z');
/** Two seconds apart: a million events span about 23 days. */
const spacingMs = 2_000;

/**
 * A million events of one company (and a few of another) through the audit projection's own
 * `apply`, in batches as the runner gives them; then filtered pages (actor, event type, record,
 * each with a date range, at shallow and deep offsets) with their exact totals, timed.
 */
export async function benchAudit(_options: BenchOptions): Promise<Figure[]> {
  const postgres = await benchPostgres();
  const url = await postgres.createDatabase('bench_audit');
  return withPool(url, 4, async (pool) => {
    await migrateProjections(pool, allProjections);
    const companyId = `bench-${randomUUID()}`;
    const loadStarted = process.hrtime.bigint();
    for (let from = 0; from < EVENTS; from += BATCH) {
      await applyBatch(pool, companyId, from, Math.min(BATCH, EVENTS - from));
      if ((from + BATCH) % 100_000 === 0) console.error(`  ${from + BATCH} events`);
    }
    await applyBatch(pool, `other-${randomUUID()}`, EVENTS, 1_000);
    const loadMs = elapsedMs(loadStarted);
    // As autovacuum leaves a settled table: the visibility map lets counts use the indexes alone.
    await pool.query('VACUUM (ANALYZE) audit_events');
    const samples: number[] = [];
    let checked = 0;
    let exact = 0;
    for (let i = 0; i < SAMPLES; i += 1) {
      const filter = filterOf(i);
      const deep = i % 5 === 4;
      const range = deep ? { start: 10_000, end: 10_024 } : { start: 0, end: 24 };
      const began = process.hrtime.bigint();
      const list = await listAuditJson(pool, { companyId, order: 'DESC', range, filter });
      samples.push(elapsedMs(began));
      if (i < 20) {
        checked += 1;
        if (list.total === (await countOf(pool, companyId, filter))) exact += 1;
      }
    }
    const summary = summarize(samples);
    const note = `${EVENTS} events, ${SAMPLES} pages filtered by actor, type or record with a date range (every fifth at offset 10,000); totals equal count(*) in ${exact}/${checked} checked`;
    return [
      figure(SECTION, 'load 1,000,000 events through the projection', loadMs, 'ms'),
      figure(SECTION, 'filtered page with exact total p50', summary.p50, 'ms'),
      figure(SECTION, 'filtered page with exact total p99', summary.p99, 'ms', {
        note,
        target: {
          text: 'p99 ≤ 100 ms, totals exact',
          met: summary.p99 <= 100 && exact === checked,
        },
      }),
    ];
  });
}

function filterOf(i: number): AuditFilter {
  const day = (i * 7) % 20;
  const from = new Date(Date.UTC(2026, 0, 1 + day, (i * 5) % 24));
  const to = new Date(from.getTime() + ((i % 3) + 1) * 86_400_000 + 1_234_567);
  const range = i % 2 === 0 ? { from, to } : {};
  if (i % 3 === 0) return { actorId: `user-${i % ACTORS}`, ...range };
  if (i % 3 === 1) return { eventType: [auditEventTypes[i % 8] ?? 'CustomerAdded'], ...range };
  return {
    record: { resource: 'customers', recordId: `customer-${(i * 37) % RECORDS}` },
    ...range,
  };
}

async function countOf(pool: pg.Pool, companyId: string, filter: AuditFilter) {
  const { rows } = await pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM audit_events WHERE company_id = $1
       AND ($2::text IS NULL OR actor_id = $2) AND ($3::text[] IS NULL OR event_type = ANY($3))
       AND ($4::text IS NULL OR (resource = 'customers' AND record_id = $4))
       AND ($5::timestamptz IS NULL OR at >= $5) AND ($6::timestamptz IS NULL OR at < $6)`,
    [
      companyId,
      filter.actorId ?? null,
      filter.eventType ?? null,
      filter.record?.recordId ?? null,
      filter.from ?? null,
      filter.to ?? null,
    ],
  );
  return Number(rows[0]?.n ?? 0);
}

async function applyBatch(pool: pg.Pool, companyId: string, from: number, count: number) {
  const events: RecordedEvent[] = [];
  for (let i = from; i < from + count; i += 1) {
    const recordId = `customer-${(i * 7919) % RECORDS}`;
    events.push({
      id: randomUUID(),
      type: auditEventTypes[i % 8] ?? 'CustomerAdded',
      streamId: `Customer-${recordId}`,
      revision: 0n,
      position: BigInt(i + 1),
      recordedAt: new Date(start + i * spacingMs),
      data: { customerId: recordId, reason: i % 10 === 0 ? 'bench' : null },
      metadata: {
        companyId,
        userId: i % 11 === 0 ? null : `user-${i % ACTORS}`,
        correlationId: randomUUID(),
        causationId: null,
        occurredAt: new Date(start + i * spacingMs).toISOString(),
        schemaVersion: 1,
      },
    });
  }
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await auditProjection.apply(events, client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
