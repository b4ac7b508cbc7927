import { ledgerAccounts } from '@issuer/events';
import type { Pool, PoolClient } from 'pg';

type Queryable = Pool | PoolClient;

/** One side of an entry: a debit or a credit of one account, in cents. */
export interface LedgerLine {
  entryId: string;
  lineNo: number;
  companyId: string;
  account: string;
  debitCents: number;
  creditCents: number;
  postedAt: string;
  position: bigint;
  paymentId: string;
}

/** An immutable transfer of `amountCents` from `debit` to `credit`: two lines, balanced. */
export function transfer(entry: {
  entryId: string;
  companyId: string;
  debit: string;
  credit: string;
  amountCents: number;
  postedAt: string;
  position: bigint;
  paymentId: string;
}): LedgerLine[] {
  const { entryId, companyId, postedAt, position, paymentId, amountCents } = entry;
  const common = { entryId, companyId, postedAt, position, paymentId };
  return [
    { ...common, lineNo: 0, account: entry.debit, debitCents: amountCents, creditCents: 0 },
    { ...common, lineNo: 1, account: entry.credit, debitCents: 0, creditCents: amountCents },
  ];
}

/** A capture moves money from the card network into the company's available balance. */
export const captureEntryId = (paymentId: string) => `capture:${paymentId}`;
export const refundEntryId = (refundId: string) => `refund:${refundId}`;

/**
 * Posts the lines whose entries are not posted yet (a replay posts nothing), then brings the
 * running balances of the accounts they touch up to date from the earliest new line on (only
 * the new lines, unless one was posted before lines already there), then the account totals.
 */
export async function postLines(client: PoolClient, lines: readonly LedgerLine[]): Promise<void> {
  if (lines.length === 0) return;
  const { rows: posted } = await client.query<{
    company_id: string;
    account: string;
    debit_cents: string;
    credit_cents: string;
    posted_at: Date;
  }>(
    `INSERT INTO ledger_lines (entry_id, line_no, company_id, account, debit_cents, credit_cents,
                               posted_at, position, balance_after_cents, payment_id)
     SELECT "entryId", "lineNo", "companyId", account, "debitCents", "creditCents", "postedAt",
            position, 0, "paymentId"
       FROM jsonb_to_recordset($1::jsonb) AS r("entryId" text, "lineNo" smallint,
         "companyId" text, account text, "debitCents" bigint, "creditCents" bigint,
         "postedAt" timestamptz, position bigint, "paymentId" text)
     ON CONFLICT (entry_id, line_no) DO NOTHING
     RETURNING company_id, account, debit_cents, credit_cents, posted_at`,
    [JSON.stringify(lines.map((line) => ({ ...line, position: line.position.toString() })))],
  );
  if (posted.length === 0) return;
  const touched = new Map<
    string,
    { companyId: string; account: string; from: Date; debits: bigint; credits: bigint }
  >();
  for (const line of posted) {
    const key = `${line.company_id}\u0000${line.account}`;
    const known = touched.get(key) ?? {
      companyId: line.company_id,
      account: line.account,
      from: line.posted_at,
      debits: 0n,
      credits: 0n,
    };
    if (line.posted_at < known.from) known.from = line.posted_at;
    known.debits += BigInt(line.debit_cents);
    known.credits += BigInt(line.credit_cents);
    touched.set(key, known);
  }
  const accounts = [...touched.values()].map((account) => ({
    ...account,
    from: account.from.toISOString(),
    debits: account.debits.toString(),
    credits: account.credits.toString(),
  }));
  await client.query(
    `WITH touched AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb)
         AS r("companyId" text, account text, "from" timestamptz)
     ), based AS (
       SELECT t.*, coalesce((
         SELECT p.balance_after_cents FROM ledger_lines p
          WHERE p.company_id = t."companyId" AND p.account = t.account AND p.posted_at < t."from"
          ORDER BY p.posted_at DESC, p.position DESC, p.line_no DESC LIMIT 1), 0) AS base
       FROM touched t
     ), running AS (
       SELECT l.entry_id, l.line_no, b.base + sum(l.credit_cents - l.debit_cents) OVER (
                PARTITION BY l.company_id, l.account
                ORDER BY l.posted_at, l.position, l.line_no) AS balance
         FROM based b JOIN ledger_lines l
           ON l.company_id = b."companyId" AND l.account = b.account AND l.posted_at >= b."from"
     )
     UPDATE ledger_lines l SET balance_after_cents = r.balance FROM running r
      WHERE l.entry_id = r.entry_id AND l.line_no = r.line_no
        AND l.balance_after_cents IS DISTINCT FROM r.balance`,
    [JSON.stringify(accounts)],
  );
  await client.query(
    `INSERT INTO ledger_balances AS b (company_id, account, debits_cents, credits_cents)
     SELECT "companyId", account, debits, credits FROM jsonb_to_recordset($1::jsonb)
       AS r("companyId" text, account text, debits bigint, credits bigint)
     ON CONFLICT (company_id, account) DO UPDATE SET
       debits_cents = b.debits_cents + EXCLUDED.debits_cents,
       credits_cents = b.credits_cents + EXCLUDED.credits_cents`,
    [JSON.stringify(accounts)],
  );
}

/** The company's available balance now (credits − debits of its available account): one row. */
export async function getAvailableBalance(db: Queryable, companyId: string): Promise<bigint> {
  return (await getAvailableBalances(db, [companyId])).get(companyId) ?? 0n;
}

/** Available balances of several companies at once (the operator's list); 0 when none posted. */
export async function getAvailableBalances(
  db: Queryable,
  companyIds: readonly string[],
): Promise<Map<string, bigint>> {
  const balances = new Map(companyIds.map((id) => [id, 0n]));
  if (companyIds.length === 0) return balances;
  const { rows } = await db.query<{ company_id: string; balance: string }>(
    `SELECT b.company_id, b.credits_cents - b.debits_cents AS balance
       FROM ledger_balances b JOIN unnest($1::text[]) AS c(id)
         ON b.company_id = c.id AND b.account = 'company:' || c.id || ':available'`,
    [companyIds],
  );
  for (const row of rows) balances.set(row.company_id, BigInt(row.balance));
  return balances;
}

/** The available balance from the lines posted at or before `asOf`: one index lookup. */
export async function getAvailableBalanceAsOf(
  db: Queryable,
  companyId: string,
  asOf: Date,
): Promise<bigint> {
  const { rows } = await db.query<{ balance_after_cents: string }>(
    `SELECT balance_after_cents FROM ledger_lines
      WHERE company_id = $1 AND account = $2 AND posted_at <= $3
      ORDER BY posted_at DESC, position DESC, line_no DESC LIMIT 1`,
    [companyId, ledgerAccounts.companyAvailable(companyId), asOf],
  );
  return BigInt(rows[0]?.balance_after_cents ?? 0);
}

export interface LedgerConsistency {
  /** Every entry's debits equal its credits, and every running balance and total agrees. */
  balanced: boolean;
  availableCents: bigint;
  /** What the company's captures and refunds moved, from the payment rows. */
  capturedCents: bigint;
  refundedCents: bigint;
}

/**
 * For tests after every money movement: the ledger balances per entry, the stored running
 * balances and totals agree with a full recount, and available = captured − refunded.
 */
export async function ledgerConsistency(
  db: Queryable,
  companyId: string,
): Promise<LedgerConsistency> {
  const available = ledgerAccounts.companyAvailable(companyId);
  const { rows } = await db.query<{
    unbalanced_entries: string;
    wrong_running: string;
    ledger_available: string;
    stored_available: string | null;
    captured: string;
    refunded: string;
  }>(
    `SELECT
       (SELECT count(*) FROM (SELECT entry_id FROM ledger_lines WHERE company_id = $1
          GROUP BY entry_id HAVING sum(debit_cents) <> sum(credit_cents)) e) AS unbalanced_entries,
       (SELECT count(*) FROM (
          SELECT balance_after_cents, sum(credit_cents - debit_cents) OVER (
                   PARTITION BY account ORDER BY posted_at, position, line_no) AS recount
            FROM ledger_lines WHERE company_id = $1) r
         WHERE balance_after_cents <> recount) AS wrong_running,
       (SELECT coalesce(sum(credit_cents - debit_cents), 0) FROM ledger_lines
         WHERE company_id = $1 AND account = $2) AS ledger_available,
       (SELECT credits_cents - debits_cents FROM ledger_balances
         WHERE company_id = $1 AND account = $2) AS stored_available,
       (SELECT coalesce(sum(amount_cents), 0) FROM payments
         WHERE company_id = $1 AND status IN ('captured', 'partially_refunded', 'refunded'))
         AS captured,
       (SELECT coalesce(sum(refunded_cents), 0) FROM payments WHERE company_id = $1) AS refunded`,
    [companyId, available],
  );
  const row = rows[0];
  if (!row) throw new Error('ledgerConsistency: no answer');
  const availableCents = BigInt(row.ledger_available);
  const capturedCents = BigInt(row.captured);
  const refundedCents = BigInt(row.refunded);
  const balanced =
    row.unbalanced_entries === '0' &&
    row.wrong_running === '0' &&
    BigInt(row.stored_available ?? 0) === availableCents &&
    availableCents === capturedCents - refundedCents;
  return { balanced, availableCents, capturedCents, refundedCents };
}
