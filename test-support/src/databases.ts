import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';

export interface PostgresServer {
  /** "embedded" (always) or "server" (when TEST_DATABASE_URL is set). */
  name: string;
  adminUrl: string;
}

/** The PostgreSQL servers the PostgreSQL suites run against in this test run. */
export function postgresServers(): PostgresServer[] {
  const servers = [{ name: 'embedded', adminUrl: inject('embeddedPostgresUrl') }];
  const external = process.env.TEST_DATABASE_URL;
  if (external) servers.push({ name: 'server', adminUrl: external });
  return servers;
}

/** Creates an empty database with a unique name on the server and returns its URL. */
export async function createDatabase(server?: PostgresServer): Promise<string> {
  const target = server ?? { name: 'embedded', adminUrl: inject('embeddedPostgresUrl') };
  const name = `${inject('testDatabasePrefix')}${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: target.adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(target.adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A database made for one test file that it drops when done (a shared server keeps no litter). */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(server?: PostgresServer): Promise<TestDatabase> {
  const target = server ?? postgresServers()[0];
  const url = await createDatabase(target);
  const name = new URL(url).pathname.slice(1);
  return {
    url,
    async drop() {
      const admin = new pg.Client({ connectionString: target?.adminUrl });
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

/** Called by the global setup: where the test files find their PostgreSQL. */
export function provideDatabases(
  project: TestProject,
  values: { embeddedPostgresUrl: string; testDatabasePrefix: string },
): void {
  project.provide('embeddedPostgresUrl', values.embeddedPostgresUrl);
  project.provide('testDatabasePrefix', values.testDatabasePrefix);
}

declare module 'vitest' {
  export interface ProvidedContext {
    embeddedPostgresUrl: string;
    testDatabasePrefix: string;
  }
}
