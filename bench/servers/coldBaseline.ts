import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { startEmbeddedPostgres } from '@issuer/eventstore/embedded';
import { Hono } from 'hono';
import pg from 'pg';

/**
 * Cold-start baseline: the same runtime (tsx), the same embedded PostgreSQL on a data folder, and
 * a Hono route that answers after the database does. Nothing of the app: no migrations, no
 * projectors, no config, no argon2.
 */
// Where the app keeps its cluster too (api/src/infrastructure.ts: DATA_DIR/postgres).
const dataDir = join(process.env.DATA_DIR ?? '', 'postgres');
const port = Number(process.env.PORT);
const postgresPort = Number(process.env.EMBEDDED_POSTGRES_PORT);
const postgres = await startEmbeddedPostgres({ dataDir, port: postgresPort, persistent: true });
const pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
await pool.query('SELECT 1');
const app = new Hono();
app.get('/health', async (c) => {
  await pool.query('SELECT 1');
  return c.json({ status: 'ok' });
});
const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
process.on('SIGTERM', () => {
  server.close();
  void pool
    .end()
    .then(() => postgres.stop())
    .finally(() => process.exit(0));
});
