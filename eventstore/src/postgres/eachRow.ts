import pg from 'pg';

/**
 * Runs one query and hands each row to `map` as it arrives, keeping only what `map` returns.
 * Unlike `pool.query`, no array of raw rows lives until the last one is in: in a read of
 * 20,000 events those survived young-generation collections and were copied twice over.
 */
export async function mapEachRow<T>(
  pool: pg.Pool,
  config: pg.QueryConfig & { rowMode: 'array'; types: pg.CustomTypesConfig },
  map: (row: unknown[]) => T,
): Promise<T[]> {
  const client = await pool.connect();
  const mapped: T[] = [];
  let failure: unknown;
  try {
    await new Promise<void>((resolve, reject) => {
      const query = new pg.Query(config);
      query.on('row', (row: unknown[]) => {
        if (failure === undefined) {
          try {
            mapped.push(map(row));
          } catch (error) {
            failure = error;
          }
        }
      });
      query.on('end', () => resolve());
      query.on('error', reject);
      client.query(query);
    });
  } catch (error) {
    client.release(error instanceof Error ? error : true);
    throw error;
  }
  client.release();
  if (failure !== undefined) throw failure;
  return mapped;
}
