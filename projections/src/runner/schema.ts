import type { Pool, PoolClient } from 'pg';
import type { Projection } from '../projection';
import { NOTHING_APPLIED } from './batches';
import { inTransaction } from './transactions';

/** Any fixed number: every process that migrates projections takes this advisory lock. */
const MIGRATION_LOCK_KEY = 7_214_530_001;

const RUNNER_TABLES = `
  CREATE TABLE IF NOT EXISTS projection_checkpoints (
    name text PRIMARY KEY,
    position bigint NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE IF NOT EXISTS projection_failures (
    projection text NOT NULL,
    position bigint NOT NULL,
    event_id text NOT NULL,
    event_type text NOT NULL,
    error text NOT NULL,
    attempts integer NOT NULL,
    failed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (projection, position)
  );
  CREATE INDEX IF NOT EXISTS projection_failures_recent ON projection_failures (failed_at DESC);
`;

/**
 * Creates the runner's tables and every read model's tables, then a checkpoint row per
 * projection. Two processes starting together serialise on an advisory lock, because
 * `CREATE TABLE IF NOT EXISTS` alone can still collide on the catalog.
 */
export async function migrateProjections(
  pool: Pool,
  projections: readonly Projection[],
): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(RUNNER_TABLES);
    for (const projection of projections) await projection.migrate(client);
    await ensureCheckpointRows(
      client,
      projections.map((projection) => projection.name),
    );
  });
}

export async function ensureCheckpointRows(
  db: Pool | PoolClient,
  names: readonly string[],
): Promise<void> {
  await db.query(
    `INSERT INTO projection_checkpoints (name, position)
     SELECT unnest($1::text[]), $2 ON CONFLICT (name) DO NOTHING`,
    [names, NOTHING_APPLIED.toString()],
  );
}
