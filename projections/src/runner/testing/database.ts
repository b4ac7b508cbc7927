import pg from 'pg';

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
const testSupportModule = '../../../../test-support/databases';

function testSupport(): Promise<TestSupport> {
  return import(/* @vite-ignore */ testSupportModule);
}

/** The embedded server, and TEST_DATABASE_URL's server when set. */
export async function postgresServers(): Promise<PostgresServer[]> {
  return (await testSupport()).postgresServers();
}

let currentServer: PostgresServer | undefined;

/** Makes later `freshDatabaseUrl()` calls create their databases on this server. */
export function useServer(server: PostgresServer): void {
  currentServer = server;
}

/** URL of a fresh, empty database on the server chosen with `useServer` (default: embedded). */
export async function freshDatabaseUrl(): Promise<string> {
  return (await testSupport()).createDatabase(currentServer);
}

export function poolFor(connectionString: string, max = 8): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  // A connection killed on purpose by a test must not crash the worker.
  pool.on('error', () => {});
  return pool;
}
