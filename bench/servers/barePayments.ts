import { Hono } from 'hono';
import pg from 'pg';
import { serveForBench } from './serve';

/**
 * Baselines for the payments section: the plainest way to answer each question from the same
 * money read-model tables, with no auth, no validation and no tricks. The list reads the newest
 * page by the (company, created_at) index without a total; the search is a naive ILIKE over the
 * description and the customer's name, sorted, counted; the deep page is a plain OFFSET; the
 * balances sum the company's ledger lines.
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const columns = `transaction_id, company_id, kind, status, amount_cents, net_cents, currency,
  payment_id, refund_reason, customer_id, customer_name, terminal_id, terminal_name, description,
  card_brand, card_last4, created_at`;
const newest = 'ORDER BY created_at DESC, transaction_id DESC';
const available = (companyId: string) => `company:${companyId}:available`;

const app = new Hono()
  .get('/list/:company', async (c) => {
    const { rows } = await pool.query(
      `SELECT ${columns} FROM money_transactions WHERE company_id = $1 ${newest} LIMIT 25`,
      [c.req.param('company')],
    );
    return c.json(rows);
  })
  .get('/search/:company', async (c) => {
    const { rows } = await pool.query(
      `SELECT ${columns}, count(*) OVER () AS total, sum(net_cents) OVER () AS net
         FROM money_transactions
        WHERE company_id = $1 AND (description ILIKE $2 OR customer_name ILIKE $2)
        ${newest} LIMIT 25`,
      [c.req.param('company'), `%${c.req.query('q') ?? ''}%`],
    );
    return c.json(rows);
  })
  .get('/offset/:company', async (c) => {
    const { rows } = await pool.query(
      `SELECT ${columns} FROM money_transactions WHERE company_id = $1 ${newest}
        LIMIT 25 OFFSET $2`,
      [c.req.param('company'), Number(c.req.query('offset') ?? 0)],
    );
    return c.json(rows);
  })
  .get('/balance/:company', async (c) => {
    const company = c.req.param('company');
    const asOf = c.req.query('asOf');
    const { rows } = await pool.query(
      `SELECT coalesce(sum(credit_cents - debit_cents), 0) AS balance FROM ledger_lines
        WHERE company_id = $1 AND account = $2 AND ($3::timestamptz IS NULL OR posted_at <= $3)`,
      [company, available(company), asOf ?? null],
    );
    return c.json({ currency: 'CAD', availableCents: Number(rows[0]?.balance ?? 0) });
  });

serveForBench(app, () => pool.end());
