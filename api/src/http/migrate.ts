import type { Pool } from 'pg';
import { idempotencyKeysDdl } from './idempotency';

/** Creates the HTTP layer's own tables in the read-model database; safe to run on every start. */
export async function migrateHttp(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Two processes starting together would otherwise race on CREATE TABLE IF NOT EXISTS.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('issuer-portal:migrate-http'))");
    await client.query(idempotencyKeysDdl);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
