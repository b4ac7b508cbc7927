import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '@issuer/eventstore/embedded';
import { freePort, provideDatabases } from '@issuer/test-support';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

/**
 * One embedded PostgreSQL for the whole run; each test file makes its own databases on it (and on
 * TEST_DATABASE_URL's server when set). Databases carry this run's prefix so teardown can drop
 * the ones made on the shared server.
 */
export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(join(tmpdir(), 'issuer-test-pg-'));
  const port = await freePort();
  const server = await startEmbeddedPostgres({ dataDir, port, persistent: false });
  const runPrefix = `t_${randomUUID().replaceAll('-', '').slice(0, 8)}_`;
  provideDatabases(project, { embeddedPostgresUrl: server.url, testDatabasePrefix: runPrefix });
  // Each project runs this setup too; say it once per run.
  if (!process.env.KAFKA_BROKERS && !process.env.KAFKA_SKIP_REPORTED) {
    process.env.KAFKA_SKIP_REPORTED = '1';
    console.log(
      'Kafka suites skipped: KAFKA_BROKERS is not set (bash scripts/kafka/broker.sh start, then KAFKA_BROKERS=127.0.0.1:9092)',
    );
  }
  return async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
    if (process.env.TEST_DATABASE_URL)
      await dropRunDatabases(process.env.TEST_DATABASE_URL, runPrefix);
  };
}

async function dropRunDatabases(adminUrl: string, prefix: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [prefix],
    );
    for (const { datname } of rows)
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
