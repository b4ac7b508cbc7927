import pg from 'pg';

interface TestSupport {
  createDatabase(): Promise<string>;
}

// test-support/ sits outside this project's rootDir, so tsc cannot follow a static import of it;
// vitest resolves this one at run time.
const testSupportModule = '../../../../test-support/databases';

/** URL of a fresh, empty database on this test run's embedded PostgreSQL. */
export async function freshDatabaseUrl(): Promise<string> {
  const support = (await import(/* @vite-ignore */ testSupportModule)) as TestSupport;
  return support.createDatabase();
}

export function poolFor(connectionString: string, max = 8): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  // A connection killed on purpose by a test must not crash the worker.
  pool.on('error', () => {});
  return pool;
}
