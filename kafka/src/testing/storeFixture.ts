import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@issuer/events';
import { PostgresEventStore } from '@issuer/eventstore';
import { migrateProjections } from '@issuer/projections';
import { createTestDatabase } from '@issuer/test-support';
import pg from 'pg';
import { type Logger, pino } from 'pino';
import { eventually } from './consumer';

export interface StoreFixture {
  databaseUrl: string;
  store: PostgresEventStore;
  /** The read-model pool, where the publisher keeps its checkpoint. */
  pool: pg.Pool;
  logger: Logger;
  checkpointOf(name: string): Promise<bigint | undefined>;
  /**
   * Waits until readers see `position`: the store hides events until every older transaction on
   * the server has ended, and test files in other workers share the server.
   */
  visible(position: bigint): Promise<void>;
  /**
   * The last position committed in this database, hidden or not: where a publisher that has sent
   * everything stands once the store shows it all.
   */
  lastPosition(): Promise<bigint | undefined>;
  close(): Promise<void>;
}

/** A fresh database with the PostgreSQL event store, dropped on close. */
export async function storeFixture(): Promise<StoreFixture> {
  const database = await createTestDatabase();
  const storePool = new pg.Pool({ connectionString: database.url, max: 8 });
  const pool = new pg.Pool({ connectionString: database.url, max: 8 });
  const store = new PostgresEventStore(storePool);
  await store.migrate();
  await migrateProjections(pool, []); // the checkpoint table, so checkpointOf works from the start
  return {
    databaseUrl: database.url,
    store,
    pool,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    async checkpointOf(name) {
      const { rows } = await pool.query<{ position: string }>(
        'SELECT position FROM projection_checkpoints WHERE name = $1',
        [name],
      );
      return rows[0] ? BigInt(rows[0].position) : undefined;
    },
    visible: (position) =>
      eventually(
        async () => ((await store.headPosition()) ?? -1n) >= position,
        10_000,
        `position ${position} to become visible`,
      ),
    async lastPosition() {
      const { rows } = await pool.query<{ last: string | null }>(
        'SELECT max(position)::text AS last FROM es_events',
      );
      return rows[0]?.last == null ? undefined : BigInt(rows[0].last);
    },
    async close() {
      await store.close();
      await Promise.all([pool.end(), storePool.end()]);
      await database.drop();
    },
  };
}

function event(companyId: string, type: string, data: object): NewEvent {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: {
      companyId,
      userId: 'user-1',
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    },
  };
}

/** Terminal events for one company stream (published on the companies topic). */
export function terminalEvents(companyId: string, count: number): NewEvent[] {
  return Array.from({ length: count }, (_, index) =>
    index === 0
      ? event(companyId, 'PaymentTerminalRegistered', {
          companyId,
          terminalId: 't-1',
          name: 'Terminal 0',
          deviceId: 'device-1',
        })
      : event(companyId, 'PaymentTerminalRenamed', {
          companyId,
          terminalId: 't-1',
          name: `Terminal ${index}`,
        }),
  );
}

/** An internal-only event (not published). */
export function symbolReserved(companyId: string, symbol: string): NewEvent {
  return event(companyId, 'SymbolReserved', { symbol, companyId });
}
