import type { Pool } from 'pg';
import { idempotencyKeysDdl } from './idempotency';

/**
 * Runs idempotent DDL in one transaction under an advisory lock: two processes starting together
 * would otherwise race on CREATE TABLE IF NOT EXISTS.
 */
export async function applyDdlOnce(pool: Pool, lockName: string, ddl: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lockName]);
    await client.query(ddl);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** Creates the HTTP layer's own tables in the read-model database; safe to run on every start. */
export function migrateHttp(pool: Pool): Promise<void> {
  return applyDdlOnce(pool, 'issuer-portal:migrate-http', idempotencyKeysDdl);
}
