import { stringify } from 'csv-stringify/sync';
import { Hono } from 'hono';
import pg from 'pg';
import { serveForBench } from './serve';

/**
 * Baselines for the customers section: the plainest way to answer each question from the same
 * `customers` read-model table, with no auth, no validation and no tricks. The list reads a page
 * by the name index, in the app's order; the search is a naive ILIKE over the fields, sorted by name, counted; the
 * deep page is a plain OFFSET; the export loads every row into memory, then writes the CSV; the
 * stream read fetches a customer's events without folding them.
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
/** The app's order by name (the unnamed last, then by email), which the name index serves. */
const byName = `(name = ''), name, email, customer_id`;
const page = `SELECT * FROM customers WHERE company_id = $1 AND NOT removed
  ORDER BY ${byName} LIMIT 25`;

const app = new Hono()
  .get('/list/:company', async (c) => {
    const { rows } = await pool.query(page, [c.req.param('company')]);
    return c.json(rows);
  })
  .get('/search/:company', async (c) => {
    const pattern = `%${c.req.query('q') ?? ''}%`;
    const { rows } = await pool.query(
      `SELECT *, count(*) OVER () AS total FROM customers
        WHERE company_id = $1 AND NOT removed AND (name ILIKE $2 OR last_name ILIKE $2
          OR email ILIKE $2 OR company ILIKE $2 OR phone ILIKE $2)
        ORDER BY ${byName} LIMIT 25`,
      [c.req.param('company'), pattern],
    );
    return c.json(rows);
  })
  .get('/offset/:company', async (c) => {
    const { rows } = await pool.query(
      `SELECT * FROM customers WHERE company_id = $1 AND NOT removed
        ORDER BY ${byName} LIMIT 25 OFFSET $2`,
      [c.req.param('company'), Number(c.req.query('offset') ?? 0)],
    );
    return c.json(rows);
  })
  .get('/export/:company', async (c) => {
    const { rows } = await pool.query(
      `SELECT * FROM customers WHERE company_id = $1 AND NOT removed ORDER BY ${byName}`,
      [c.req.param('company')],
    );
    const columns = Object.keys(rows[0] ?? {});
    const csv = stringify([columns, ...rows.map((row) => columns.map((column) => row[column]))]);
    return c.body(csv, 200, { 'Content-Type': 'text/csv' });
  })
  .get('/events/:stream', async (c) => {
    const { rows } = await pool.query(
      'SELECT revision, type, data, metadata FROM es_events WHERE stream_id = $1 ORDER BY revision',
      [c.req.param('stream')],
    );
    return c.json(rows);
  });

serveForBench(app, () => pool.end());
