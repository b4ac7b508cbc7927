import type { Pool, PoolClient } from 'pg';

/**
 * Runs `work` in one transaction on a pooled connection. While checked out, a pg client that loses
 * its connection emits 'error', which crashes the process when nobody listens; the failing query
 * rejects as well, so the listener only has to exist.
 */
export async function inTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  const keepProcessAlive = () => {};
  client.on('error', keepProcessAlive);
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    client.removeListener('error', keepProcessAlive);
    client.release(broken);
  }
}
