import type { PaymentPurpose } from '@issuer/events';
import type { PoolClient } from 'pg';
import type { PaymentRow } from './paymentRows';

export const transactionKinds = ['payment', 'refund', 'etransfer', 'payout'] as const;
export type TransactionKind = (typeof transactionKinds)[number];
export const transactionStatuses = ['succeeded', 'pending', 'failed'] as const;
export type TransactionStatus = (typeof transactionStatuses)[number];

/**
 * One money movement: a captured payment or a refund (`pending` until the processor confirms it,
 * `failed` when it refused it).
 */
export interface TransactionRow {
  id: string;
  companyId: string;
  kind: TransactionKind;
  status: TransactionStatus;
  amountCents: number;
  /** Signed: + for a payment, − for a refund; 0 for a failed refund (no money moved). */
  netCents: number;
  currency: 'CAD';
  paymentId: string;
  refundReason: string | null;
  customerId: string | null;
  customerName: string | null;
  terminalId: string | null;
  terminalName: string | null;
  description: string | null;
  purpose: PaymentPurpose | null;
  cardBrand: string | null;
  cardLast4: string | null;
  createdAt: string;
  position: bigint;
}

const fromPayment = (payment: PaymentRow) => ({
  companyId: payment.companyId,
  status: 'succeeded' as const,
  currency: payment.currency,
  paymentId: payment.id,
  customerId: payment.customerId,
  customerName: payment.customerName,
  terminalId: payment.terminalId,
  terminalName: payment.terminalName,
  description: payment.description,
  purpose: payment.purpose,
  cardBrand: payment.cardBrand,
  cardLast4: payment.cardLast4,
});

export function captureTransaction(payment: PaymentRow, position: bigint): TransactionRow {
  return {
    ...fromPayment(payment),
    id: payment.id,
    kind: 'payment',
    amountCents: payment.amountCents,
    netCents: payment.amountCents,
    refundReason: null,
    createdAt: payment.completedAt ?? payment.requestedAt,
    position,
  };
}

/** A refund is `pending` until the processor confirms it. */
export function refundTransaction(
  payment: PaymentRow,
  refund: { id: string; amountCents: number; reason: string; refundedAt: string },
  position: bigint,
): TransactionRow {
  return {
    ...fromPayment(payment),
    id: refund.id,
    kind: 'refund',
    status: 'pending',
    amountCents: refund.amountCents,
    netCents: -refund.amountCents,
    refundReason: refund.reason,
    createdAt: refund.refundedAt,
    position,
  };
}

export interface StoredTransaction {
  transaction_id: string;
  company_id: string;
  kind: TransactionKind;
  status: TransactionStatus;
  amount_cents: string;
  net_cents: string;
  currency: 'CAD';
  payment_id: string;
  refund_reason: string | null;
  customer_id: string | null;
  customer_name: string | null;
  terminal_id: string | null;
  terminal_name: string | null;
  description: string | null;
  purpose: PaymentPurpose | null;
  card_brand: string | null;
  card_last4: string | null;
  created_at: Date;
  position: string;
}

export const transactionColumns = `transaction_id, company_id, kind, status, amount_cents,
  net_cents, currency, payment_id, refund_reason, customer_id, customer_name, terminal_id,
  terminal_name, description, purpose, card_brand, card_last4, created_at, position`;

export function toTransactionRow(stored: StoredTransaction): TransactionRow {
  return {
    id: stored.transaction_id,
    companyId: stored.company_id,
    kind: stored.kind,
    status: stored.status,
    amountCents: Number(stored.amount_cents),
    netCents: Number(stored.net_cents),
    currency: stored.currency,
    paymentId: stored.payment_id,
    refundReason: stored.refund_reason,
    customerId: stored.customer_id,
    customerName: stored.customer_name,
    terminalId: stored.terminal_id,
    terminalName: stored.terminal_name,
    description: stored.description,
    purpose: stored.purpose,
    cardBrand: stored.card_brand,
    cardLast4: stored.card_last4,
    createdAt: stored.created_at.toISOString(),
    position: BigInt(stored.position),
  };
}

/** The count keys a transaction adds to: everything, its kind, its customer, its terminal. */
export function transactionCountKeys(row: {
  company_id: string;
  kind: string;
  customer_id: string | null;
  terminal_id: string | null;
}): [string, string][] {
  const keys: [string, string][] = [
    ['all', ''],
    ['kind', row.kind],
  ];
  if (row.customer_id) keys.push(['customerId', row.customer_id]);
  if (row.terminal_id) keys.push(['terminalId', row.terminal_id]);
  return keys;
}

/** Inserts the movements not recorded yet and adds those (and only those) to the totals. */
export async function insertTransactions(
  client: PoolClient,
  rows: readonly TransactionRow[],
): Promise<void> {
  if (rows.length === 0) return;
  const { rows: inserted } = await client.query<{
    company_id: string;
    kind: string;
    customer_id: string | null;
    terminal_id: string | null;
    net_cents: string;
  }>(
    `INSERT INTO money_transactions (${transactionColumns})
     SELECT id, "companyId", kind, status, "amountCents", "netCents", currency, "paymentId",
            "refundReason", "customerId", "customerName", "terminalId", "terminalName",
            description, purpose, "cardBrand", "cardLast4", "createdAt", position
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, "companyId" text, kind text,
         status text, "amountCents" bigint, "netCents" bigint, currency text, "paymentId" text,
         "refundReason" text, "customerId" text, "customerName" text, "terminalId" text,
         "terminalName" text, description text, purpose jsonb, "cardBrand" text, "cardLast4" text,
         "createdAt" timestamptz, position bigint)
     ON CONFLICT (transaction_id) DO NOTHING
     RETURNING company_id, kind, customer_id, terminal_id, net_cents`,
    [JSON.stringify(rows.map((row) => ({ ...row, position: row.position.toString() })))],
  );
  const deltas = new Map<string, { total: number; net: bigint }>();
  for (const row of inserted) {
    for (const [dimension, value] of transactionCountKeys(row)) {
      const key = JSON.stringify([row.company_id, 'transactions', dimension, value]);
      const delta = deltas.get(key) ?? { total: 0, net: 0n };
      delta.total += 1;
      delta.net += BigInt(row.net_cents);
      deltas.set(key, delta);
    }
  }
  await addCounts(client, deltas);
}

/** Adds (company, list, dimension, value) deltas of rows and net cents to `money_counts`. */
export async function addCounts(
  client: PoolClient,
  deltas: ReadonlyMap<string, { total: number; net: bigint }>,
): Promise<void> {
  const records = [...deltas]
    .filter(([, delta]) => delta.total !== 0 || delta.net !== 0n)
    .map(([key, delta]) => [...(JSON.parse(key) as string[]), delta.total, delta.net.toString()]);
  if (records.length === 0) return;
  await client.query(
    `INSERT INTO money_counts AS c (company_id, list, dimension, value, total, net_cents)
     SELECT r->>0, r->>1, r->>2, r->>3, (r->>4)::bigint, (r->>5)::bigint
       FROM jsonb_array_elements($1::jsonb) AS r
     ON CONFLICT (company_id, list, dimension, value) DO UPDATE
       SET total = c.total + EXCLUDED.total, net_cents = c.net_cents + EXCLUDED.net_cents`,
    [JSON.stringify(records)],
  );
  // A count back at zero goes, so the rows equal a rebuild's.
  await client.query(
    `DELETE FROM money_counts c USING jsonb_array_elements($1::jsonb) AS r
      WHERE c.company_id = r->>0 AND c.list = r->>1 AND c.dimension = r->>2 AND c.value = r->>3
        AND c.total = 0 AND c.net_cents = 0`,
    [JSON.stringify(records)],
  );
}

/**
 * Marks refunds the processor refused as failed: their net no longer counts (net 0), and the
 * totals get their net back. Only a row not failed yet changes, so a replay changes nothing.
 */
export async function failTransactions(
  client: PoolClient,
  refundIds: readonly string[],
): Promise<void> {
  if (refundIds.length === 0) return;
  const { rows: failed } = await client.query<{
    company_id: string;
    kind: string;
    customer_id: string | null;
    terminal_id: string | null;
    amount_cents: string;
  }>(
    `UPDATE money_transactions SET status = 'failed', net_cents = 0
      WHERE transaction_id = ANY($1) AND kind = 'refund' AND status <> 'failed'
      RETURNING company_id, kind, customer_id, terminal_id, amount_cents`,
    [refundIds],
  );
  const deltas = new Map<string, { total: number; net: bigint }>();
  for (const row of failed) {
    for (const [dimension, value] of transactionCountKeys(row)) {
      const key = JSON.stringify([row.company_id, 'transactions', dimension, value]);
      const delta = deltas.get(key) ?? { total: 0, net: 0n };
      delta.net += BigInt(row.amount_cents);
      deltas.set(key, delta);
    }
  }
  await addCounts(client, deltas);
}
