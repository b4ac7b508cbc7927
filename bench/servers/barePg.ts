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

/** The stream's last 10 events and the revision the next one takes. */
async function readStream(streamId: string) {
  const { rows } = await pool.query<StoredRow>(
    'SELECT revision, type, data FROM bare_events WHERE stream_id = $1 ORDER BY revision DESC LIMIT 10',
    [streamId],
  );
  return { rows, next: (rows[0]?.revision ?? -1) + 1 };
}

const app = new Hono();
app.post('/bare/:stream', async (c) => {
  const streamId = c.req.param('stream');
  const body: unknown = await c.req.json();
  const { rows, next } = await readStream(streamId);
  const inserted = await pool.query(
    `INSERT INTO bare_events (stream_id, revision, type, data) VALUES ($1, $2, 'SettingsUpdated', $3)
     ON CONFLICT (stream_id, revision) DO NOTHING`,
    [streamId, next, JSON.stringify(body)],
  );
  if (inserted.rowCount !== 1) return c.json({ error: 'conflict' }, 409);
  return c.json({ revision: next, read: rows.length });
});
/**
 * The same, also writing in the append's one statement what the command's read models write:
 * the user's row (the users read model) and an audit row with its four running numbers (the audit
 * log's `audit_events` and `audit_counts`, with the same indexes). The least the command could
 * cost with its read models written inline, for comparison only: no checkpoint, no redaction,
 * no NOTIFY.
 */
app.post('/bare-with-rows/:stream', async (c) => {
  const streamId = c.req.param('stream');
  const body: unknown = await c.req.json();
  const { rows, next } = await readStream(streamId);
  const inserted = await pool.query(
    `WITH event AS (
       INSERT INTO bare_events (stream_id, revision, type, data)
       VALUES ($1, $2, 'SettingsUpdated', $3) ON CONFLICT (stream_id, revision) DO NOTHING
       RETURNING position, data, recorded_at
     ), counted AS (
       INSERT INTO bare_audit_counts (company_id, dimension, value, total, last_position)
       SELECT $1, d.dimension, d.value, 1, event.position
         FROM event, (VALUES ('all', ''), ('actor', $1), ('type', 'SettingsUpdated'),
                             ('record', 'users/' || $1)) AS d (dimension, value)
       ON CONFLICT (company_id, dimension, value) DO UPDATE
         SET total = bare_audit_counts.total + 1, last_position = EXCLUDED.last_position
       RETURNING dimension, total
     ), audited AS (
       INSERT INTO bare_audit (company_id, position, event_id, event_type, stream_id, resource,
                               record_id, actor_id, at, occurred_at, details, n_all, n_actor,
                               n_type, n_record)
       SELECT $1, event.position, gen_random_uuid()::text, 'SettingsUpdated', 'UserSettings-' || $1,
              'users', $1, $1, event.recorded_at, event.recorded_at, event.data,
              (SELECT total FROM counted WHERE dimension = 'all'),
              (SELECT total FROM counted WHERE dimension = 'actor'),
              (SELECT total FROM counted WHERE dimension = 'type'),
              (SELECT total FROM counted WHERE dimension = 'record')
         FROM event
     ), user_row AS (
       INSERT INTO bare_users (id, data, updated_at) SELECT $1, event.data, event.recorded_at FROM event
       ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data, updated_at = EXCLUDED.updated_at
     )
     SELECT position FROM event`,
    [streamId, next, JSON.stringify(body)],
  );
  if (inserted.rowCount !== 1) return c.json({ error: 'conflict' }, 409);
  return c.json({ revision: next, read: rows.length });
});

serveForBench(app, () => pool.end());
