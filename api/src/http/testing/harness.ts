import { ORDINAL_BITS, PostgresEventStore, VISIBLE_HORIZON } from '@issuer/eventstore';
import { createDatabase } from '@issuer/test-support';
import type { Hono } from 'hono';
import pg from 'pg';
import pino from 'pino';
import { recordingGateway } from '../../payments/testing/recordingGateway';
import { buildApp } from '../buildApp';
import { migrateHttp } from '../migrate';
import type { AppDependencies, AppEnv, Feature, ProjectionsHealth } from '../types';

/** Test double for the projector's waiter: caught up at once, or never, or after a delay. */
export class ScriptedReadModels {
  caughtUp = true;
  delayMs = 0;
  readonly positions: bigint[] = [];
  async waitFor(position: bigint): Promise<boolean> {
    this.positions.push(position);
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    return this.caughtUp;
  }
}

export interface Harness {
  app: Hono<AppEnv>;
  deps: AppDependencies;
  store: PostgresEventStore;
  pool: pg.Pool;
  readModels: ScriptedReadModels;
  /** Every log line written so far, raw and parsed. */
  logLines: string[];
  logs(): Record<string, unknown>[];
  /** Moves the injected clock. */
  advanceClock(ms: number): void;
  /**
   * The store's head once every transaction that committed before this call is visible. The
   * PostgreSQL store hides positions behind the server-wide oldest running transaction, and other
   * test files share the server, so a plain `headPosition()` can lag a commit for a moment.
   */
  settledHead(): Promise<bigint | undefined>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  idempotencyWaitMs?: number;
  projectionStatus?: () => Promise<ProjectionsHealth>;
  pool?: pg.Pool;
}

/** A real app on a fresh PostgreSQL database (event store and read models), with test features. */
export async function startHarness(
  features: readonly Feature[],
  options: HarnessOptions = {},
): Promise<Harness> {
  const url = await createDatabase();
  const pool = options.pool ?? new pg.Pool({ connectionString: url, max: 10 });
  const storePool = new pg.Pool({ connectionString: url, max: 10 });
  const store = new PostgresEventStore(storePool);
  await store.migrate();
  if (!options.pool) await migrateHttp(pool);
  const readModels = new ScriptedReadModels();
  const logLines: string[] = [];
  let now = new Date('2025-01-15T10:00:00.000Z').getTime();
  const deps: AppDependencies = {
    store,
    pool,
    readModels,
    projectionStatus:
      options.projectionStatus ?? (async () => ({ projections: [], recentFailures: [] })),
    logger: pino({ level: 'info' }, { write: (line: string) => logLines.push(line) }),
    clock: () => new Date(now),
    paymentGateway: recordingGateway(),
    config: {
      tokenSecret: new TextEncoder().encode('test-secret-test-secret-test-secret!'),
      tokenIssuer: 'test',
      tokenAudience: 'test',
      tokenLifetimeSeconds: 3600,
      readYourWritesTimeoutMs: 50,
      idempotencyWaitMs: options.idempotencyWaitMs ?? 5_000,
    },
  };
  return {
    app: buildApp(deps, features),
    deps,
    store,
    pool,
    readModels,
    logLines,
    logs: () => logLines.map((line) => JSON.parse(line) as Record<string, unknown>),
    advanceClock: (ms) => {
      now += ms;
    },
    settledHead: async () => {
      await waitForOlderTransactions(storePool);
      return store.headPosition();
    },
    close: async () => {
      await store.close();
      await Promise.all([storePool.end(), pool.end()]);
    },
  };
}

/** Waits until every transaction of this database begun before the call has ended (so its events are readable). */
export async function waitForOlderTransactions(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
  const mine = BigInt(rows[0]?.xid ?? '0');
  const deadline = Date.now() + 15_000;
  for (;;) {
    const horizon = await pool.query<{ xid: string }>(
      `SELECT (${VISIBLE_HORIZON} >> ${ORDINAL_BITS})::text AS xid`,
    );
    if (BigInt(horizon.rows[0]?.xid ?? '0') > mine) return;
    if (Date.now() > deadline) throw new Error('older transactions are still running after 15 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
