import { Hono } from 'hono';
import pg from 'pg';
import { serveForBench } from './serve';

/**
 * Baseline: the least an event-sourced command can do over HTTP. Parse a JSON body, read the
 * stream's last 10 events, append one at the next revision (the unique key is the optimistic
 * concurrency check). Plain SQL on a plain table: no auth, no validation, no decider.
 * The table is created and seeded by the parent (bench/sections/http.ts).
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });

interface StoredRow {
  revision: number;
  type: string;
  data: unknown;
}

const app = new Hono();
app.post('/bare/:stream', async (c) => {
  const streamId = c.req.param('stream');
  const body: unknown = await c.req.json();
  const { rows } = await pool.query<StoredRow>(
    'SELECT revision, type, data FROM bare_events WHERE stream_id = $1 ORDER BY revision DESC LIMIT 10',
    [streamId],
  );
  const next = (rows[0]?.revision ?? -1) + 1;
  const inserted = await pool.query(
    `INSERT INTO bare_events (stream_id, revision, type, data) VALUES ($1, $2, 'SettingsUpdated', $3)
     ON CONFLICT (stream_id, revision) DO NOTHING`,
    [streamId, next, JSON.stringify(body)],
  );
  if (inserted.rowCount !== 1) return c.json({ error: 'conflict' }, 409);
  return c.json({ revision: next, read: rows.length });
});
serveForBench(app, () => pool.end());
