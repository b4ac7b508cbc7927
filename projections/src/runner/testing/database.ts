import {
  createDatabase,
  type PostgresServer,
  postgresServers as servers,
} from '@issuer/test-support';
import pg from 'pg';

export type { PostgresServer };

/** The embedded server, and TEST_DATABASE_URL's server when set. */
export async function postgresServers(): Promise<PostgresServer[]> {
  return servers();
}

let currentServer: PostgresServer | undefined;

/** Makes later `freshDatabaseUrl()` calls create their databases on this server. */
export function useServer(server: PostgresServer): void {
  currentServer = server;
}

/** URL of a fresh, empty database on the server chosen with `useServer` (default: embedded). */
export async function freshDatabaseUrl(): Promise<string> {
  return createDatabase(currentServer);
}

export function poolFor(connectionString: string, max = 8): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  // A connection killed on purpose by a test must not crash the worker.
  pool.on('error', () => {});
  return pool;
}
