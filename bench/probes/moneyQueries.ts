// `node --import tsx bench/probes/moneyQueries.ts [rows]` (default 1,000,000): one company with
// that many transactions and ledger lines in the money read model's own tables (written by SQL
// as the projection writes them, on a throwaway embedded PostgreSQL), then the read side's
// queries, sequentially: the transactions list's first and last pages with their exact totals,
// searches, filters, the balance and the balance as of a time. Prints p50/p99 in ms as JSON.
// Targets (issue 9): list search and last page p99 ≤ 100 ms, balance and as-of p99 ≤ 20 ms.
import {
  getAvailableBalance,
  getAvailableBalanceAsOf,
  listTransactions,
  moneyProjection,
  type TransactionListQuery,
} from '@issuer/projections';
import pg from 'pg';
import { cleanupAll } from '../lib/cleanup';
import { benchPostgres } from '../lib/postgres';
import { summarize } from '../lib/stats';

const rows = Number(process.argv[2] ?? 1_000_000);
const companyId = 'co-big';
const customers = 5_000;

async function seed(pool: pg.Pool) {
  const client = await pool.connect();
  try {
    await moneyProjection.migrate(client);
  } finally {
    client.release();
  }
  // Every tenth movement a refund; 5,000 customers with 977 distinct last names; a description
  // on one in a thousand; one every 30 seconds from 2024-01-01.
  await pool.query(
    `INSERT INTO money_transactions (transaction_id, company_id, kind, status, amount_cents,
       net_cents, currency, payment_id, refund_reason, customer_id, customer_name, terminal_id,
       terminal_name, description, card_brand, card_last4, created_at, position)
     SELECT 'pay_' || md5(i::text), $1, CASE WHEN i % 10 = 0 THEN 'refund' ELSE 'payment' END,
       'succeeded', (i * 7919) % 99999 + 1,
       CASE WHEN i % 10 = 0 THEN -((i * 7919) % 99999 + 1) ELSE (i * 7919) % 99999 + 1 END,
       'CAD', 'pay_' || md5(i::text), NULL, 'cus-' || (i % $3),
       'Customer' || (i % $3) || ' Name' || ((i % $3) % 977), 'term-' || (i % 3), 'Till',
       CASE WHEN i % 1000 = 0 THEN 'Gold bar ' || i END, 'visa', '4242',
       timestamptz '2024-01-01' + i * interval '30 seconds', i
     FROM generate_series(1::bigint, $2::bigint) i`,
    [companyId, rows, customers],
  );
  await pool.query(
    `INSERT INTO money_counts SELECT company_id, 'transactions', 'all', '', count(*),
       sum(net_cents) FROM money_transactions GROUP BY company_id
     UNION ALL SELECT company_id, 'transactions', 'kind', kind, count(*), sum(net_cents)
       FROM money_transactions GROUP BY company_id, kind`,
  );
  await pool.query(
    `INSERT INTO money_customer_names
     SELECT 'cus-' || i, $1, 'Customer' || i, 'Name' || (i % 977), 1 FROM generate_series(0, $2 - 1) i`,
    [companyId, customers],
  );
  await pool.query(
    `INSERT INTO ledger_lines (entry_id, line_no, company_id, account, debit_cents, credit_cents,
       posted_at, position, balance_after_cents, payment_id)
     SELECT 'e' || i, 1, $1, 'company:' || $1 || ':available', 0, 100,
       timestamptz '2024-01-01' + i * interval '30 seconds', i, i * 100, 'p'
     FROM generate_series(1::bigint, $2::bigint) i`,
    [companyId, rows],
  );
  await pool.query(
    `INSERT INTO ledger_balances VALUES ($1, 'company:' || $1 || ':available', 0, $2::bigint * 100)`,
    [companyId, rows],
  );
  await pool.query('VACUUM ANALYZE');
}

async function timed(runs: number, work: () => Promise<unknown>) {
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    await work();
    samples.push(performance.now() - start);
  }
  const { p50, p99 } = summarize(samples);
  return { p50: Number(p50.toFixed(2)), p99: Number(p99.toFixed(2)) };
}

try {
  const postgres = await benchPostgres();
  const pool = new pg.Pool({ connectionString: await postgres.createDatabase('money'), max: 2 });
  const seeded = performance.now();
  await seed(pool);
  console.error(
    `seeded ${rows} transactions in ${((performance.now() - seeded) / 1000).toFixed(0)} s`,
  );
  const list = (over: Partial<TransactionListQuery> = {}) =>
    listTransactions(pool, {
      companyId,
      sort: { field: 'createdAt', order: 'DESC' },
      range: { start: 0, end: 24 },
      filter: {},
      ...over,
    });
  const last = { start: rows - 25, end: rows - 1 };
  const figures = {
    rows,
    firstPage: await timed(100, () => list()),
    lastPage: await timed(100, () => list({ range: last })),
    lastPageByAmount: await timed(100, () =>
      list({ sort: { field: 'amountCents', order: 'ASC' }, range: last }),
    ),
    refundsLastPage: await timed(100, () =>
      list({ filter: { kind: ['refund'] }, range: { start: rows / 10 - 25, end: rows / 10 - 1 } }),
    ),
    searchDescription: await timed(100, () => list({ filter: { q: 'gold' } })),
    searchCustomerName: await timed(100, () => list({ filter: { q: 'name976' } })),
    searchPaymentId: await timed(100, () => list({ filter: { q: 'pay_c4ca4238' } })),
    searchLastPage: await timed(100, async () => {
      const { total } = await list({ filter: { q: 'name976' } });
      await list({ filter: { q: 'name976' }, range: { start: total - 25, end: total - 1 } });
    }),
    oneCustomer: await timed(100, () => list({ filter: { customerId: 'cus-17' } })),
    oneDay: await timed(100, () =>
      list({
        filter: { createdFrom: new Date('2024-03-01'), createdTo: new Date('2024-03-02') },
      }),
    ),
    balance: await timed(500, () => getAvailableBalance(pool, companyId)),
    balanceAsOf: await timed(500, () =>
      getAvailableBalanceAsOf(pool, companyId, new Date('2024-05-01T12:34:56Z')),
    ),
  };
  console.log(JSON.stringify(figures, null, 2));
  await pool.end();
} finally {
  await cleanupAll();
}
