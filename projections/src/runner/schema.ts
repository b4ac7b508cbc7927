import type { Pool, PoolClient } from 'pg';
import type { Projection } from '../projection';
import { NOTHING_APPLIED } from './batches';
import { inTransaction } from './transactions';

/**
 * `ALTER TABLE … ADD COLUMN IF NOT EXISTS` takes the table's ACCESS EXCLUSIVE lock even when the
 * column is there, on every start: a process restarting under load then blocks every reader of
 * the table and can deadlock them (the fault run of issue 16 saw it). This adds the column only
 * when it is missing, so a start on a current schema takes no such lock.
 */
export function addColumnIfMissing(table: string, column: string, definition: string): string {
  const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
  return `
DO $add_column$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_attribute
                  WHERE attrelid = ${literal(table)}::regclass AND attname = ${literal(column)}
                    AND NOT attisdropped) THEN
    ALTER TABLE ${table} ADD COLUMN ${column} ${definition};
  END IF;
END $add_column$;
`;
}

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
