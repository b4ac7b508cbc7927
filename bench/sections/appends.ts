import { randomUUID } from 'node:crypto';
import type { EventStore, ExpectedRevision } from '@issuer/events';
import { PostgresEventStore } from '@issuer/eventstore';
import { meterCpu } from '../lib/cpu';
import type { BenchOptions } from '../lib/options';
import { settingsEvent } from '../lib/payloads';
import { benchPostgres, withPool } from '../lib/postgres';
import { type Figure, figure } from '../lib/report';
import { combine, runWriters, type WritersResult, type WritersRun } from '../lib/writers';

const SECTION = 'appends';
const TARGET_RATIO = 0.6;
/** Baseline and store take turns, so a burst of load from elsewhere on the machine hits both. */
const ROUNDS = 3;

/**
 * Appends of one event per call, each writer to its own stream with the exact expected revision,
 * against the same event as a single-row INSERT into a plain table (same database, same pool
 * size, same number of writers).
 */
export async function benchAppends(options: BenchOptions): Promise<Figure[]> {
  const postgres = await benchPostgres();
  const url = await postgres.createDatabase('bench_appends');
  const timing = { durationMs: (options.appendSeconds * 1000) / ROUNDS, warmupMs: 300 };
  const figures: Figure[] = [];
  for (const writers of [1, 16]) {
    const { baseline, store } = await withPool(url, writers, async (pool) => {
      await pool.query(`CREATE TABLE IF NOT EXISTS plain_events (
        id bigserial PRIMARY KEY, event_id uuid NOT NULL, stream_id text NOT NULL, type text NOT NULL,
        data jsonb NOT NULL, metadata jsonb NOT NULL, recorded_at timestamptz NOT NULL DEFAULT now())`);
      const eventStore = new PostgresEventStore(pool);
      await eventStore.migrate();
      const appendNext = streamAppender(eventStore, writers);
      const companyId = randomUUID();
      const baselineRuns: WritersRun[] = [];
      const storeRuns: WritersRun[] = [];
      const cpu = { baseline: { postgres: 0, client: 0 }, store: { postgres: 0, client: 0 } };
      const metered = async (kind: keyof typeof cpu, run: () => Promise<WritersRun>) => {
        const meter = meterCpu({ postgres: postgres.postmasterPid, client: 'self' });
        const result = await run();
        const used = meter.read();
        cpu[kind].postgres += used.postgres ?? 0;
        cpu[kind].client += used.client ?? 0;
        return result;
      };
      try {
        for (let round = 0; round < ROUNDS; round += 1) {
          baselineRuns.push(
            await metered('baseline', () =>
              runWriters(writers, timing, async (writer) => {
                const event = settingsEvent(companyId, `user-${writer}`, 0);
                await pool.query(
                  'INSERT INTO plain_events (event_id, stream_id, type, data, metadata) VALUES ($1, $2, $3, $4, $5)',
                  [event.id, `Bench-${writer}`, event.type, event.data, event.metadata],
                );
              }),
            ),
          );
          storeRuns.push(await metered('store', () => runWriters(writers, timing, appendNext)));
        }
      } finally {
        await eventStore.close();
      }
      const perOp = (kind: keyof typeof cpu, runs: WritersRun[]) => {
        const ops = Math.max(
          1,
          runs.reduce((total, run) => total + run.samplesMs.length, 0),
        );
        return { postgres: cpu[kind].postgres / ops, client: cpu[kind].client / ops };
      };
      return {
        baseline: { ...combine(baselineRuns), cpuMsPerOp: perOp('baseline', baselineRuns) },
        store: { ...combine(storeRuns), cpuMsPerOp: perOp('store', storeRuns) },
      };
    });
    console.error(describe(`raw INSERT, ${writers} writer(s)`, baseline));
    console.error(describe(`PostgresEventStore, ${writers} writer(s)`, store));
    figures.push(...compare(writers, store, baseline));
  }
  return figures;
}

/** Writer `n` appends the next event to its own stream, always with the exact expected revision. */
function streamAppender(store: EventStore, writers: number): (writer: number) => Promise<void> {
  const companyId = randomUUID();
  const streams = Array.from({ length: writers }, () => ({
    id: `BenchAppend-${randomUUID()}`,
    expected: 'no_stream' as ExpectedRevision,
    counter: 0,
  }));
  return async (writer) => {
    const stream = streams[writer];
    if (!stream) throw new Error(`no stream for writer ${writer}`);
    const event = settingsEvent(companyId, `user-${writer}`, stream.counter++);
    const result = await store.appendToStream(stream.id, [event], {
      expectedRevision: stream.expected,
    });
    stream.expected = result.nextExpectedRevision;
  };
}

type Measured = WritersResult & { cpuMsPerOp: { postgres: number; client: number } };

function compare(writers: number, store: Measured, baseline: Measured): Figure[] {
  const name = `${writers} writer${writers === 1 ? '' : 's'}`;
  const throughput = figure(SECTION, `appends/s, ${name}`, store.perSecond, '/s', {
    baseline: { name: 'raw pg INSERT', value: baseline.perSecond },
    target: {
      text: `≥ ${TARGET_RATIO}× baseline`,
      met: store.perSecond >= TARGET_RATIO * baseline.perSecond,
    },
    note: `CPU ms per append: PostgreSQL ${store.cpuMsPerOp.postgres.toFixed(2)}, client ${store.cpuMsPerOp.client.toFixed(2)}; per INSERT: ${baseline.cpuMsPerOp.postgres.toFixed(2)}, ${baseline.cpuMsPerOp.client.toFixed(2)}`,
    detail: {
      postgresCpuMsPerAppend: store.cpuMsPerOp.postgres,
      clientCpuMsPerAppend: store.cpuMsPerOp.client,
      postgresCpuMsPerInsert: baseline.cpuMsPerOp.postgres,
      clientCpuMsPerInsert: baseline.cpuMsPerOp.client,
    },
  });
  // The same 60% read as latency: p99 may be at most 1/0.6 ≈ 1.67× the baseline's.
  const latency = figure(SECTION, `append p99, ${name}`, store.latency.p99, 'ms', {
    baseline: { name: 'raw pg INSERT p99', value: baseline.latency.p99 },
    target: {
      text: `≤ ${(1 / TARGET_RATIO).toFixed(2)}× baseline`,
      met: store.latency.p99 <= baseline.latency.p99 / TARGET_RATIO,
    },
    note: `p50 ${store.latency.p50.toFixed(2)} ms vs ${baseline.latency.p50.toFixed(2)} ms; ${store.latency.count} appends and ${baseline.latency.count} inserts in ${ROUNDS} alternating rounds`,
  });
  return [throughput, latency];
}

function describe(label: string, result: Measured): string {
  return `  ${label}: ${Math.round(result.perSecond)}/s, p50 ${result.latency.p50.toFixed(2)} ms, p99 ${result.latency.p99.toFixed(2)} ms (${result.latency.count} ops); CPU ms per op: PostgreSQL ${result.cpuMsPerOp.postgres.toFixed(2)}, client ${result.cpuMsPerOp.client.toFixed(2)}`;
}
