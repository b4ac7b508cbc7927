import type { Pool, PoolClient } from 'pg';

/**
 * Runs `work` on a pooled connection that `work` uses for one transaction. While checked out, a
 * pg client that loses its connection emits 'error', which crashes the process when nobody
 * listens; the failing query rejects as well, so the listener only has to exist. On failure the
 * transaction is rolled back, and a client that cannot even do that is destroyed, not reused.
 */
export async function withTransactionClient<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  const keepProcessAlive = () => {};
  client.on('error', keepProcessAlive);
  let broken = false;
  try {
    return await work(client);
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

export function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  return withTransactionClient(pool, async (client) => {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  });
}

/**
 * Rows of one statement of a multi-statement simple query, for which pg resolves an array of
 * results (its typings only describe the single-statement case).
 */
export function rowsOfStatement<Row>(results: unknown, index: number): Row[] {
  const all = Array.isArray(results) ? results : [results];
  const result: unknown = all.at(index);
  if (typeof result !== 'object' || result === null || !('rows' in result))
    throw new Error(`No result for statement ${index}`);
  return result.rows as Row[];
}
