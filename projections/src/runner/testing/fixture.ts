import type { EventStore, NewEvent } from '@issuer/events';
import { PostgresEventStore } from '@issuer/eventstore';
import type pg from 'pg';
import { type Logger, pino } from 'pino';
import { afterEach } from 'vitest';
import type { Projection } from '../../projection';
import { ProjectorRunner, type ProjectorRunnerOptions } from '../runner';
import { migrateProjections } from '../schema';
import { freshDatabaseUrl, poolFor } from './database';

/** Fast retries and pauses so failure tests take milliseconds, not seconds. */
export const FAST_TIMINGS = {
  retryDelaysMs: [5, 10, 20],
  errorBackoffMs: 50,
  idlePollMs: 200,
} as const;

export interface Fixture {
  databaseUrl: string;
  store: EventStore;
  /** The read-model pool (the store has its own, on the same database). */
  pool: pg.Pool;
  logger: Logger;
  /** Appends to one stream and returns the position of its last event. */
  append(streamId: string, events: readonly NewEvent[]): Promise<bigint>;
  startRunner(options?: Partial<ProjectorRunnerOptions>): ProjectorRunner;
  checkpointOf(name: string): Promise<bigint | undefined>;
  close(): Promise<void>;
}

/** A fixture per test, closed after it: `const fresh = fixturePerTest()`, then `await fresh([...])`. */
export function fixturePerTest(): (projections: readonly Projection[]) => Promise<Fixture> {
  let current: Fixture | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return async (projections) => {
    current = await fixture(projections);
    return current;
  };
}

export async function fixture(projections: readonly Projection[]): Promise<Fixture> {
  const databaseUrl = await freshDatabaseUrl();
  const storePool = poolFor(databaseUrl);
  const store = new PostgresEventStore(storePool);
  await store.migrate();
  const pool = poolFor(databaseUrl);
  await migrateProjections(pool, projections);
  const logger = pino({ level: 'silent' });
  const runners: ProjectorRunner[] = [];
  return {
    databaseUrl,
    store,
    pool,
    logger,
    async append(streamId, events) {
      const result = await store.appendToStream(streamId, events, { expectedRevision: 'any' });
      return result.position;
    },
    startRunner(options = {}) {
      const runner = new ProjectorRunner({
        store,
        pool,
        projections,
        logger,
        ...FAST_TIMINGS,
        ...options,
      }).start();
      runners.push(runner);
      return runner;
    },
    async checkpointOf(name) {
      const { rows } = await pool.query<{ position: string }>(
        'SELECT position FROM projection_checkpoints WHERE name = $1',
        [name],
      );
      return rows[0] ? BigInt(rows[0].position) : undefined;
    },
    async close() {
      await Promise.all(runners.map((runner) => runner.stop()));
      await store.close();
      await pool.end();
      await storePool.end().catch(() => {});
    },
  };
}
