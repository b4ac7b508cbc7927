import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from '@issuer/eventstore';
import { accountProjections, rebuildProjections } from '@issuer/projections';
import pg from 'pg';
import { meterCpu } from '../lib/cpu';
import { bulkLoadHistory, loadHistory, verifyThroughStore } from '../lib/loadHistory';
import type { BenchOptions } from '../lib/options';
import { settingsEvent } from '../lib/payloads';
import { benchPostgres, withPool } from '../lib/postgres';
import { type Figure, figure } from '../lib/report';

const SECTION = 'rebuild';
/** Issue 15's target for the rebuild of 1,000,000 events. */
const TARGET_PER_SECOND = 200_000;
/** The rebuild's own default read size; the baseline reads with the same. */
const READ_BATCH = 20_000;

/**
 * Stores N events (default 1,000,000) through appendToStream, then times `rebuildProjections` over
 * the real account read models (companies, users, revoked tokens). The baseline reads the same
 * events with `readAll` in batches of the same size and applies nothing: the part of a rebuild
 * that no projection code can avoid.
 */
export async function benchRebuild(options: BenchOptions): Promise<Figure[]> {
  const postgres = await benchPostgres();
  const url = await postgres.createDatabase('bench_rebuild');

  // Loading is set-up, not the thing measured: its session does not wait for WAL flushes.
  const loaded = await withPoolOptions(url, 6, '-c synchronous_commit=off', async (pool) => {
    const store = new PostgresEventStore(pool);
    await store.migrate();
    try {
      const progress = (events: number) =>
        console.error(`  stored ${events.toLocaleString('en-US')} events`);
      const loaded =
        options.load === 'bulk'
          ? await bulkLoadHistory(pool, options.events, progress)
          : await loadHistory(store, options.events, progress);
      await verifyThroughStore(store, loaded.sample, settingsEvent(randomUUID(), randomUUID(), 0));
      return loaded;
    } finally {
      await store.close();
    }
  });
  console.error(
    `  stored ${loaded.events.toLocaleString('en-US')} events (${loaded.companies} companies, ${loaded.appends} ${options.load === 'bulk' ? 'bulk transactions' : 'appends'}) in ${loaded.seconds.toFixed(1)} s: ${Math.round(loaded.events / loaded.seconds)} events/s`,
  );
  await withPool(url, 1, (pool) => pool.query('VACUUM ANALYZE es_events'));

  return withPool(url, 8, async (pool) => {
    const store = new PostgresEventStore(pool);
    try {
      const readCpu = meterCpu({ postgres: postgres.postmasterPid, client: 'self' });
      const readStarted = performance.now();
      let read = 0;
      for (let after: bigint | undefined; ; ) {
        const batch = await store.readAll({ after, maxCount: READ_BATCH });
        const last = batch.at(-1);
        if (!last) break;
        read += batch.length;
        after = last.position;
      }
      const readPerSecond = read / ((performance.now() - readStarted) / 1000);
      const readUsed = perThousand(readCpu.read(), read);
      console.error(
        `  readAll only: ${Math.round(readPerSecond)} events/s; CPU ms per 1,000 events: ${cpuText(readUsed)}`,
      );

      const rebuildCpu = meterCpu({ postgres: postgres.postmasterPid, client: 'self' });
      const result = await rebuildProjections({ store, pool, projections: accountProjections });
      const rebuildUsed = perThousand(rebuildCpu.read(), result.events);
      console.error(
        `  rebuildProjections: ${result.events} events in ${result.seconds.toFixed(1)} s, ${Math.round(result.eventsPerSecond)} events/s, ${result.failedEvents} failed; CPU ms per 1,000 events: ${cpuText(rebuildUsed)}`,
      );
      const rows = await countRows(pool);
      return [
        figure(
          SECTION,
          `rebuild of ${shortCount(result.events)} events`,
          result.eventsPerSecond,
          'events/s',
          {
            baseline: { name: 'readAll, nothing applied', value: readPerSecond },
            target: {
              text: `≥ ${TARGET_PER_SECOND.toLocaleString('en-US')} ev/s`,
              met: result.eventsPerSecond >= TARGET_PER_SECOND && result.failedEvents === 0,
            },
            detail: {
              clientCpuMsPer1000: rebuildUsed.client ?? 0,
              postgresCpuMsPer1000: rebuildUsed.postgres ?? 0,
              readAllClientCpuMsPer1000: readUsed.client ?? 0,
              readAllPostgresCpuMsPer1000: readUsed.postgres ?? 0,
            },
            note: `${result.seconds.toFixed(1)} s; CPU ms per 1,000 events: rebuild ${cpuText(rebuildUsed)}, readAll ${cpuText(readUsed)}; ${result.failedEvents} failed events; rows after: ${rows}; events stored ${options.load === 'bulk' ? 'by bulk SQL into the store tables' : 'through appendToStream'} at ${Math.round(loaded.events / loaded.seconds).toLocaleString('en-US')} events/s (set-up, synchronous_commit off for that session)`,
          },
        ),
      ];
    } finally {
      await store.close();
    }
  });
}

async function countRows(pool: pg.Pool): Promise<string> {
  const parts: string[] = [];
  for (const table of accountProjections.flatMap((projection) => projection.tables)) {
    const { rows } = await pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`);
    parts.push(`${table} ${rows[0]?.n ?? '?'}`);
  }
  return parts.join(', ');
}

function perThousand(used: Record<string, number>, events: number): Record<string, number> {
  return Object.fromEntries(
    Object.entries(used).map(([name, ms]) => [name, (ms * 1000) / Math.max(1, events)]),
  );
}

function cpuText(used: Record<string, number>): string {
  return Object.entries(used)
    .map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
    .join(', ');
}

function shortCount(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(n % 1_000_000 < 1000 ? 0 : 2)}M`;
  return n >= 1000 ? `${Math.round(n / 1000)}k` : String(n);
}

async function withPoolOptions<T>(
  connectionString: string,
  max: number,
  sessionOptions: string,
  work: (pool: pg.Pool) => Promise<T>,
): Promise<T> {
  const pool = new pg.Pool({ connectionString, max, options: sessionOptions });
  pool.on('error', (error) => console.error('idle bench connection failed:', error.message));
  try {
    return await work(pool);
  } finally {
    await pool.end();
  }
}
