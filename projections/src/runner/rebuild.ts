import type { EventStore } from '@issuer/events';
import pg, { type Pool } from 'pg';
import { type Logger, pino } from 'pino';
import type { Projection } from '../projection';
import {
  applyEvents,
  type BatchOutcome,
  type BatchTarget,
  DEFAULT_RETRY_DELAYS_MS,
} from './applyEvents';
import { lastPosition, NOTHING_APPLIED } from './batches';
import { ReadAhead } from './reader';
import { migrateProjections } from './schema';
import { inTransaction } from './transactions';
import { sleep } from './wakeSignal';

export interface RebuildOptions {
  store: EventStore;
  pool: Pool;
  projections: readonly Projection[];
  logger?: Logger;
  /** Events per read and per transaction. Default 10,000. */
  batchSize?: number;
  retryDelaysMs?: readonly number[];
}

export interface RebuildResult {
  events: number;
  failedEvents: number;
  seconds: number;
  eventsPerSecond: number;
}

/**
 * Empties the read models and replays every event through the same batch path as the runner.
 * Batches commit as they go, so readers see partial read models until it finishes. A runner
 * left running meanwhile is safe (the checkpoint row lock keeps them from applying twice).
 */
export async function rebuildProjections(options: RebuildOptions): Promise<RebuildResult> {
  const started = performance.now();
  await migrateProjections(options.pool, options.projections);
  // Events appended meanwhile are replayed too when visible in time, or else left to the runner.
  const headAtStart = await options.store.headPosition();
  await resetProjections(options.pool, options.projections);
  const targets = options.projections.map((projection) => rebuildTarget(options, projection));
  const readAhead = new ReadAhead(
    (after, maxCount) => options.store.readAll({ after, maxCount }),
    options.batchSize ?? 10_000,
  );
  let after: bigint | undefined;
  let events = 0;
  let failedEvents = 0;
  for (;;) {
    const batch = await readAhead.take(after);
    const end = lastPosition(batch);
    if (end === undefined) {
      if ((after ?? NOTHING_APPLIED) >= (headAtStart ?? NOTHING_APPLIED)) break;
      // Not expected (the store's horizon only moves forward), but never stop short of the head.
      await sleep(50);
      continue;
    }
    if (readAhead.isFull(batch)) readAhead.prefetch(end);
    const outcomes = await Promise.all(targets.map((target) => applyEvents(target, batch)));
    events += batch.length;
    failedEvents += sumFailed(outcomes);
    after = end;
    options.logger?.debug({ events, position: end.toString() }, 'rebuild progress');
  }
  const seconds = (performance.now() - started) / 1000;
  const result = { events, failedEvents, seconds, eventsPerSecond: events / seconds };
  options.logger?.info(result, 'read models rebuilt');
  return result;
}

/** One transaction: empty tables, forget failures, put every checkpoint back before event zero. */
async function resetProjections(pool: Pool, projections: readonly Projection[]): Promise<void> {
  const names = projections.map((projection) => projection.name);
  const tables = projections.flatMap((projection) => projection.tables);
  await inTransaction(pool, async (client) => {
    await client.query(
      'SELECT 1 FROM projection_checkpoints WHERE name = ANY($1::text[]) ORDER BY name FOR UPDATE',
      [names],
    );
    if (tables.length > 0) await client.query(`TRUNCATE ${tables.map(quoteTable).join(', ')}`);
    await client.query('DELETE FROM projection_failures WHERE projection = ANY($1::text[])', [
      names,
    ]);
    await client.query(
      'UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = ANY($1::text[])',
      [names, NOTHING_APPLIED.toString()],
    );
  });
}

function rebuildTarget(options: RebuildOptions, projection: Projection): BatchTarget {
  return {
    pool: options.pool,
    projection,
    handles: new Set(projection.handles),
    logger: (options.logger ?? silentLogger).child({ projection: projection.name, rebuild: true }),
    retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
  };
}

const silentLogger = pino({ level: 'silent' });

function sumFailed(outcomes: readonly BatchOutcome[]): number {
  return outcomes.reduce((total, outcome) => total + outcome.failed, 0);
}

/** `schema.table` or `table`, each part quoted as an identifier. */
export function quoteTable(name: string): string {
  return name.split('.').map(pg.escapeIdentifier).join('.');
}

/**
 * Every row of every table, ordered by the row's text form so two databases with the same
 * content compare equal row by row (used to prove rebuilt equals incremental).
 */
export async function snapshotTables(
  pool: Pool,
  tables: readonly string[],
): Promise<Record<string, Record<string, unknown>[]>> {
  const snapshot: Record<string, Record<string, unknown>[]> = {};
  for (const table of tables) {
    const { rows } = await pool.query<Record<string, unknown>>(
      `SELECT * FROM ${quoteTable(table)} AS r ORDER BY r::text COLLATE "C"`,
    );
    snapshot[table] = rows;
  }
  return snapshot;
}
