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
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}
