import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

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
