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
/** The reversal of a refund the processor refused: the money comes back to the balance. */
export const refundFailedEntryId = (refundId: string) => `refund-failed:${refundId}`;

interface AccountTotals {
  companyId: string;
  account: string;
  /** The earliest new line's time: running balances from there on may need recounting. */
  from: string;
  debits: bigint;
  credits: bigint;
}

const accountKey = (line: { companyId: string; account: string }) =>
  `${line.companyId}\u0000${line.account}`;

/** Ledger order: posting time, then the event's position, then the line. */
function compareLines(
  a: { postedAt: number; position: bigint; lineNo: number },
  b: { postedAt: number; position: bigint; lineNo: number },
): number {
  if (a.postedAt !== b.postedAt) return a.postedAt - b.postedAt;
  if (a.position !== b.position) return a.position < b.position ? -1 : 1;
  return a.lineNo - b.lineNo;
}

/**
 * Posts new lines with their running balances, then adds them to the account totals. Lines come
 * only from events a payment row had not applied yet, so they are new. The usual case appends
 * after an account's last line: the balances are counted here from that line's. A line posted
 * before lines already there (a capture reported late) has the account's balances recounted from
 * it in SQL; so has every account when an entry turns out to be posted already (a safety net:
 * nothing is posted twice).
 */
export async function postLines(client: PoolClient, lines: readonly LedgerLine[]): Promise<void> {
  if (lines.length === 0) return;
  const byAccount = new Map<string, (LedgerLine & { at: number; balance: bigint })[]>();
  for (const line of lines) {
    const key = accountKey(line);
    const group = byAccount.get(key) ?? [];
    group.push({ ...line, at: Date.parse(line.postedAt), balance: 0n });
    byAccount.set(key, group);
  }
  const lastLines = await lastLinesOf(
    client,
    [...byAccount.values()].flatMap((g) => g[0] ?? []),
  );
  const recount: AccountTotals[] = [];
  const totals: AccountTotals[] = [];
  for (const [key, group] of byAccount) {
    group.sort((a, b) => compareLines({ ...a, postedAt: a.at }, { ...b, postedAt: b.at }));
    const first = group[0];
    if (!first) continue;
    const last = lastLines.get(key);
    const appends = !last || compareLines(last, { ...first, postedAt: first.at }) < 0;
    let balance = last?.balance ?? 0n;
    const account: AccountTotals = {
      companyId: first.companyId,
      account: first.account,
      from: first.postedAt,
      debits: 0n,
      credits: 0n,
    };
    for (const line of group) {
      balance += BigInt(line.creditCents) - BigInt(line.debitCents);
      line.balance = balance;
      account.debits += BigInt(line.debitCents);
      account.credits += BigInt(line.creditCents);
    }
    totals.push(account);
    if (!appends) recount.push(account);
  }
  const allNew = (await insertLines(client, [...byAccount.values()].flat())) === lines.length;
  await recountRunningBalances(client, allNew ? recount : totals);
  await addToTotals(client, totals, allNew);
}

async function lastLinesOf(
  client: PoolClient,
  accounts: readonly { companyId: string; account: string }[],
) {
  const { rows } = await client.query<{
    company_id: string;
    account: string;
    posted_at: Date;
    position: string;
    line_no: number;
    balance_after_cents: string;
  }>(
    `SELECT t."companyId" AS company_id, t.account, l.posted_at, l.position, l.line_no,
            l.balance_after_cents
       FROM jsonb_to_recordset($1::jsonb) AS t("companyId" text, account text)
       JOIN LATERAL (
         SELECT posted_at, position, line_no, balance_after_cents FROM ledger_lines
          WHERE company_id = t."companyId" AND account = t.account
          ORDER BY posted_at DESC, position DESC, line_no DESC LIMIT 1) l ON true`,
    [JSON.stringify(accounts.map(({ companyId, account }) => ({ companyId, account })))],
  );
  return new Map(
    rows.map((row) => [
      accountKey({ companyId: row.company_id, account: row.account }),
      {
        postedAt: row.posted_at.getTime(),
        position: BigInt(row.position),
        lineNo: row.line_no,
        balance: BigInt(row.balance_after_cents),
      },
    ]),
  );
}

/** Inserts the lines not posted yet; answers how many were. */
async function insertLines(
  client: PoolClient,
  lines: readonly (LedgerLine & { balance: bigint })[],
): Promise<number> {
  const { rowCount } = await client.query(
    `INSERT INTO ledger_lines (entry_id, line_no, company_id, account, debit_cents, credit_cents,
                               posted_at, position, balance_after_cents, payment_id)
     SELECT "entryId", "lineNo", "companyId", account, "debitCents", "creditCents", "postedAt",
            position, balance, "paymentId"
       FROM jsonb_to_recordset($1::jsonb) AS r("entryId" text, "lineNo" smallint,
         "companyId" text, account text, "debitCents" bigint, "creditCents" bigint,
         "postedAt" timestamptz, position bigint, balance bigint, "paymentId" text)
     ON CONFLICT (entry_id, line_no) DO NOTHING`,
    [
      JSON.stringify(
        lines.map(({ at: _at, ...line }: LedgerLine & { at?: number; balance: bigint }) => ({
          ...line,
          position: line.position.toString(),
          balance: line.balance.toString(),
        })),
      ),
    ],
  );
  return rowCount ?? 0;
}

/** Recounts the running balances of each account from its `from` time on. */
async function recountRunningBalances(
  client: PoolClient,
  accounts: readonly AccountTotals[],
): Promise<void> {
  if (accounts.length === 0) return;
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
    [
      JSON.stringify(
        accounts.map(({ companyId, account, from }) => ({ companyId, account, from })),
      ),
    ],
  );
}

/**
 * Adds the new lines to the account totals; when some entry was posted already (the safety net
 * above), recounts the touched accounts' totals from their lines instead, never counting twice.
 */
async function addToTotals(
  client: PoolClient,
  accounts: readonly AccountTotals[],
  allNew: boolean,
): Promise<void> {
  if (allNew) {
    const records = accounts.map(({ companyId, account, debits, credits }) => ({
      companyId,
      account,
      debits: debits.toString(),
      credits: credits.toString(),
    }));
    await client.query(
      `INSERT INTO ledger_balances AS b (company_id, account, debits_cents, credits_cents)
       SELECT "companyId", account, debits, credits FROM jsonb_to_recordset($1::jsonb)
         AS r("companyId" text, account text, debits bigint, credits bigint)
       ON CONFLICT (company_id, account) DO UPDATE SET
         debits_cents = b.debits_cents + EXCLUDED.debits_cents,
         credits_cents = b.credits_cents + EXCLUDED.credits_cents`,
      [JSON.stringify(records)],
    );
    return;
  }
  await client.query(
    `INSERT INTO ledger_balances AS b (company_id, account, debits_cents, credits_cents)
     SELECT r."companyId", r.account, s.debits, s.credits
       FROM jsonb_to_recordset($1::jsonb) AS r("companyId" text, account text)
       CROSS JOIN LATERAL (
         SELECT coalesce(sum(debit_cents), 0) AS debits, coalesce(sum(credit_cents), 0) AS credits
           FROM ledger_lines WHERE company_id = r."companyId" AND account = r.account) s
     ON CONFLICT (company_id, account) DO UPDATE SET
       debits_cents = EXCLUDED.debits_cents, credits_cents = EXCLUDED.credits_cents`,
    [JSON.stringify(accounts.map(({ companyId, account }) => ({ companyId, account })))],
  );
}

/** The company's available balance now (credits − debits of its available account): one row. */
export async function getAvailableBalance(db: Queryable, companyId: string): Promise<bigint> {
  const { rows } = await db.query<{ balance: string }>(
    `SELECT credits_cents - debits_cents AS balance FROM ledger_balances
      WHERE company_id = $1 AND account = $2`,
    [companyId, ledgerAccounts.companyAvailable(companyId)],
  );
  return BigInt(rows[0]?.balance ?? 0);
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
  /** What e-transfers moved, from the e-transfer rows: deposits in, payouts out (unless failed). */
  depositedCents: bigint;
  paidOutCents: bigint;
}

/**
 * For tests after every money movement: the ledger balances per entry, the stored running
 * balances and totals agree with a full recount, and available = captured − refunded (refunds that
 * failed excluded) + e-transfers deposited − payouts not failed.
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
    deposited: string;
    paid_out: string;
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
       (SELECT coalesce(sum(refunded_cents), 0) FROM payments WHERE company_id = $1) AS refunded,
       (SELECT coalesce(sum(amount_cents), 0) FROM etransfers
         WHERE company_id = $1 AND kind IN ('request', 'incoming') AND status = 'deposited')
         AS deposited,
       (SELECT coalesce(sum(amount_cents), 0) FROM etransfers
         WHERE company_id = $1 AND kind = 'payout' AND status <> 'failed') AS paid_out`,
    [companyId, available],
  );
  const row = rows[0];
  if (!row) throw new Error('ledgerConsistency: no answer');
  const availableCents = BigInt(row.ledger_available);
  const capturedCents = BigInt(row.captured);
  const refundedCents = BigInt(row.refunded);
  const depositedCents = BigInt(row.deposited);
  const paidOutCents = BigInt(row.paid_out);
  const balanced =
    row.unbalanced_entries === '0' &&
    row.wrong_running === '0' &&
    BigInt(row.stored_available ?? 0) === availableCents &&
    availableCents === capturedCents - refundedCents + depositedCents - paidOutCents;
  return { balanced, availableCents, capturedCents, refundedCents, depositedCents, paidOutCents };
}
