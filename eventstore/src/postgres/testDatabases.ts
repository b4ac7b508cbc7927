import pg from 'pg';

/** The parts of test-support/databases.ts the PostgreSQL store tests use. */
export interface PostgresServer {
  name: string;
  adminUrl: string;
}

interface TestSupport {
  postgresServers(): PostgresServer[];
  createDatabase(server?: PostgresServer): Promise<string>;
}

// test-support/ sits outside this project's rootDir, so tsc cannot follow a static import of it;
// vitest resolves this one at run time.
const testSupportModule = '../../../test-support/databases';

async function testSupport(): Promise<TestSupport> {
  return (await import(/* @vite-ignore */ testSupportModule)) as TestSupport;
}

/** The servers of this run: the embedded PostgreSQL, and TEST_DATABASE_URL's server when set. */
export async function postgresServers(): Promise<PostgresServer[]> {
  return (await testSupport()).postgresServers();
}

export interface TestDatabase {
  url: string;
  /** Drops the database (test runs against a shared server must not leave databases behind). */
  drop(): Promise<void>;
}

export async function createTestDatabase(server: PostgresServer): Promise<TestDatabase> {
  const url = await (await testSupport()).createDatabase(server);
  const name = new URL(url).pathname.slice(1);
  return {
    url,
    async drop() {
      const admin = new pg.Client({ connectionString: server.adminUrl });
      await admin.connect();
      try {
        await waitForDisconnects(admin, name);
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}

/**
 * pool.end() resolves before its connections have closed on the server; dropping with FORCE at
 * that moment makes their clients emit "terminating connection" errors nobody listens to.
 */
async function waitForDisconnects(admin: pg.Client, database: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    const { rows } = await admin.query<{ connections: number }>(
      'SELECT count(*)::int AS connections FROM pg_stat_activity WHERE datname = $1',
      [database],
    );
    if (rows[0]?.connections === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
