import { type EtransferEvent, ledgerAccounts, type PaymentPurpose } from '@issuer/events';
import type { PoolClient } from 'pg';
import { addColumnIfMissing } from '../../runner/schema';
import { type LedgerLine, transfer } from './ledger';
import { addCounts, type TransactionRow } from './transactionRows';

export const etransferKinds = ['request', 'incoming', 'payout'] as const;
export type EtransferKind = (typeof etransferKinds)[number];
export const etransferStatuses = [
  'requested',
  'sent',
  'deposited',
  'declined',
  'cancelled',
  'expired',
  'failed',
] as const;
export type EtransferStatus = (typeof etransferStatuses)[number];

/** One e-transfer as the list and the detail show it (the customer's name is joined on read). */
export interface EtransferRow {
  id: string;
  companyId: string;
  kind: EtransferKind;
  status: EtransferStatus;
  customerId: string | null;
  email: string;
  amountCents: number;
  currency: 'CAD';
  message: string | null;
  reference: string | null;
  requestedBy: string | null;
  matchedBy: string | null;
  matchedByUser: string | null;
  matchReason: string | null;
  failureReason: string | null;
  /** The subscription invoice a billing request collects. */
  invoiceId: string | null;
  /** What a billing or token order request collects, for each reader's language. */
  purpose: PaymentPurpose | null;
  createdAt: string;
  expiresAt: string | null;
  completedAt: string | null;
  position: bigint;
}

const blank = {
  message: null,
  reference: null,
  requestedBy: null,
  matchedBy: null,
  matchedByUser: null,
  matchReason: null,
  failureReason: null,
  invoiceId: null,
  purpose: null,
  expiresAt: null,
  completedAt: null,
};

/** The row after one event; undefined when the event names a row this model never saw. */
export function evolveEtransferRow(
  row: EtransferRow | undefined,
  event: EtransferEvent,
  position: bigint,
): EtransferRow | undefined {
  const { data } = event;
  const common = { id: data.etransferId, companyId: data.companyId, currency: 'CAD' as const };
  switch (event.type) {
    case 'EtransferRequested':
      return {
        ...blank,
        ...common,
        kind: 'request',
        status: 'requested',
        customerId: event.data.customerId,
        email: event.data.recipientEmail,
        amountCents: event.data.amountCents,
        message: event.data.message,
        reference: event.data.reference,
        requestedBy: event.data.requestedBy,
        invoiceId: event.data.invoiceId ?? null,
        purpose: event.data.purpose ?? null,
        createdAt: event.data.requestedAt,
        expiresAt: event.data.expiresAt,
        position,
      };
    case 'PayoutRequested':
      return {
        ...blank,
        ...common,
        kind: 'payout',
        status: 'requested',
        customerId: event.data.customerId,
        email: event.data.recipientEmail,
        amountCents: event.data.amountCents,
        message: event.data.message,
        requestedBy: event.data.requestedBy,
        createdAt: event.data.requestedAt,
        position,
      };
    case 'IncomingEtransferReceived':
      return {
        ...blank,
        ...common,
        kind: 'incoming',
        status: 'deposited',
        customerId: event.data.customerId,
        email: event.data.fromEmail,
        amountCents: event.data.amountCents,
        reference: event.data.reference,
        matchedBy: event.data.matchedBy,
        createdAt: event.data.receivedAt,
        completedAt: event.data.receivedAt,
        position,
      };
  }
  if (!row) return undefined;
  const at = { ...row, position };
  switch (event.type) {
    case 'EtransferSent':
      return { ...at, status: row.status === 'requested' ? 'sent' : row.status };
    case 'EtransferDeposited':
      return { ...at, status: 'deposited', completedAt: event.data.depositedAt };
    case 'EtransferDeclined':
      return { ...at, status: 'declined', completedAt: event.data.declinedAt };
    case 'EtransferCancelled':
      return { ...at, status: 'cancelled', completedAt: event.data.cancelledAt };
    case 'EtransferExpired':
      return { ...at, status: 'expired', completedAt: event.data.expiredAt };
    case 'EtransferMatched':
      return {
        ...at,
        customerId: event.data.customerId,
        matchedBy: 'manual',
        matchedByUser: event.data.matchedBy,
        matchReason: event.data.reason,
      };
    case 'PayoutSent':
      return { ...at, status: 'sent', completedAt: event.data.sentAt };
    case 'PayoutFailed':
      return {
        ...at,
        status: 'failed',
        failureReason: event.data.reason,
        completedAt: event.data.failedAt,
      };
    default:
      return at;
  }
}

export const etransferEntryId = (etransferId: string) => `etransfer:${etransferId}`;
export const payoutEntryId = (etransferId: string) => `payout:${etransferId}`;
export const payoutReturnEntryId = (etransferId: string) => `payout-returned:${etransferId}`;

/**
 * The money an e-transfer event moves: a deposit (requested or not) credits the company's
 * available balance from `external:etransfer`; a payout debits it when requested (the wallet
 * reserved it then) and a failed payout gives it back. Each with its Transactions row.
 */
export function etransferMoneyMoved(
  event: EtransferEvent,
  row: EtransferRow,
  position: bigint,
  customerName: string | null,
  transactions: TransactionRow[],
  lines: LedgerLine[],
  statusChanges: Map<string, string>,
  matches: Map<string, { customerId: string; customerName: string | null }>,
): void {
  const available = ledgerAccounts.companyAvailable(row.companyId);
  const external = ledgerAccounts.externalEtransfer;
  const base = { companyId: row.companyId, paymentId: row.id, position };
  const movement = (
    id: string,
    kind: 'etransfer' | 'payout',
    status: TransactionRow['status'],
    netCents: number,
    createdAt: string,
  ): TransactionRow => ({
    id,
    companyId: row.companyId,
    kind,
    status,
    amountCents: row.amountCents,
    netCents,
    currency: 'CAD',
    paymentId: row.id,
    refundReason: null,
    customerId: row.customerId,
    customerName,
    terminalId: null,
    terminalName: null,
    description: row.message ?? row.reference,
    purpose: row.purpose,
    cardBrand: null,
    cardLast4: null,
    createdAt,
    position,
  });
  const amountCents = row.amountCents;
  switch (event.type) {
    case 'EtransferDeposited':
    case 'IncomingEtransferReceived': {
      const at =
        event.type === 'EtransferDeposited' ? event.data.depositedAt : event.data.receivedAt;
      transactions.push(movement(row.id, 'etransfer', 'succeeded', amountCents, at));
      lines.push(
        ...transfer({
          ...base,
          entryId: etransferEntryId(row.id),
          debit: external,
          credit: available,
          amountCents: event.type === 'EtransferDeposited' ? event.data.amountCents : amountCents,
          postedAt: at,
        }),
      );
      return;
    }
    case 'PayoutRequested':
      transactions.push(
        movement(row.id, 'payout', 'pending', -amountCents, event.data.requestedAt),
      );
      lines.push(
        ...transfer({
          ...base,
          entryId: payoutEntryId(row.id),
          debit: available,
          credit: external,
          amountCents,
          postedAt: event.data.requestedAt,
        }),
      );
      return;
    case 'PayoutSent':
      statusChanges.set(row.id, 'succeeded');
      return;
    case 'EtransferMatched':
      matches.set(row.id, { customerId: event.data.customerId, customerName });
      return;
    case 'PayoutFailed':
      statusChanges.set(row.id, 'failed');
      transactions.push(
        movement(`${row.id}:returned`, 'payout', 'failed', amountCents, event.data.failedAt),
      );
      lines.push(
        ...transfer({
          ...base,
          entryId: payoutReturnEntryId(row.id),
          debit: external,
          credit: available,
          amountCents,
          postedAt: event.data.failedAt,
        }),
      );
      return;
    default:
      return;
  }
}

export const etransferColumns = `etransfer_id, company_id, kind, status, customer_id, email,
  amount_cents, currency, message, reference, requested_by, matched_by, matched_by_user,
  match_reason, failure_reason, invoice_id, purpose, created_at, expires_at, completed_at, position`;

export interface StoredEtransfer {
  etransfer_id: string;
  company_id: string;
  kind: EtransferKind;
  status: EtransferStatus;
  customer_id: string | null;
  email: string;
  amount_cents: string;
  currency: 'CAD';
  message: string | null;
  reference: string | null;
  requested_by: string | null;
  matched_by: string | null;
  matched_by_user: string | null;
  match_reason: string | null;
  failure_reason: string | null;
  invoice_id: string | null;
  purpose: PaymentPurpose | null;
  created_at: Date;
  expires_at: Date | null;
  completed_at: Date | null;
  position: string;
}

export function toEtransferRow(stored: StoredEtransfer): EtransferRow {
  return {
    id: stored.etransfer_id,
    companyId: stored.company_id,
    kind: stored.kind,
    status: stored.status,
    customerId: stored.customer_id,
    email: stored.email,
    amountCents: Number(stored.amount_cents),
    currency: stored.currency,
    message: stored.message,
    reference: stored.reference,
    requestedBy: stored.requested_by,
    matchedBy: stored.matched_by,
    matchedByUser: stored.matched_by_user,
    matchReason: stored.match_reason,
    failureReason: stored.failure_reason,
    invoiceId: stored.invoice_id,
    purpose: stored.purpose,
    createdAt: stored.created_at.toISOString(),
    expiresAt: stored.expires_at?.toISOString() ?? null,
    completedAt: stored.completed_at?.toISOString() ?? null,
    position: BigInt(stored.position),
  };
}

export async function loadEtransfers(
  client: PoolClient,
  ids: readonly string[],
): Promise<Map<string, EtransferRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await client.query<StoredEtransfer>(
    `SELECT ${etransferColumns} FROM etransfers WHERE etransfer_id = ANY($1)`,
    [ids],
  );
  return new Map(rows.map((stored) => [stored.etransfer_id, toEtransferRow(stored)]));
}

export async function upsertEtransfers(
  client: PoolClient,
  rows: readonly EtransferRow[],
): Promise<void> {
  if (rows.length === 0) return;
  const records = rows.map((row) => ({ ...row, position: row.position.toString() }));
  await client.query(
    `INSERT INTO etransfers AS t (${etransferColumns})
     SELECT id, "companyId", kind, status, "customerId", email, "amountCents", currency, message,
            reference, "requestedBy", "matchedBy", "matchedByUser", "matchReason",
            "failureReason", "invoiceId", purpose, "createdAt", "expiresAt", "completedAt", position
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, "companyId" text, kind text, status text,
         "customerId" text, email text, "amountCents" bigint, currency text, message text,
         reference text, "requestedBy" text, "matchedBy" text, "matchedByUser" text,
         "matchReason" text, "failureReason" text, "invoiceId" text, purpose jsonb, "createdAt" timestamptz,
         "expiresAt" timestamptz, "completedAt" timestamptz, position bigint)
     ON CONFLICT (etransfer_id) DO UPDATE SET
       status = EXCLUDED.status, customer_id = EXCLUDED.customer_id,
       matched_by = EXCLUDED.matched_by, matched_by_user = EXCLUDED.matched_by_user,
       match_reason = EXCLUDED.match_reason, failure_reason = EXCLUDED.failure_reason,
       completed_at = EXCLUDED.completed_at, position = EXCLUDED.position
     WHERE t.position < EXCLUDED.position`,
    [JSON.stringify(records)],
  );
}

/** A payout's Transactions row follows its outcome (the row's totals do not change). */
export async function updateTransactionStatuses(
  client: PoolClient,
  changes: ReadonlyMap<string, string>,
): Promise<void> {
  if (changes.size === 0) return;
  await client.query(
    `UPDATE money_transactions t SET status = c.status
       FROM unnest($1::text[], $2::text[]) AS c(id, status)
      WHERE t.transaction_id = c.id`,
    [[...changes.keys()], [...changes.values()]],
  );
}

/**
 * An autodeposit matched by hand: its Transactions row gets the customer (once), and the
 * customer's totals count it from then on.
 */
export async function matchTransactions(
  client: PoolClient,
  matches: ReadonlyMap<string, { customerId: string; customerName: string | null }>,
): Promise<void> {
  const deltas = new Map<string, { total: number; net: bigint }>();
  for (const [id, match] of matches) {
    const { rows } = await client.query<{ company_id: string; net_cents: string }>(
      `UPDATE money_transactions SET customer_id = $2, customer_name = $3
        WHERE transaction_id = $1 AND customer_id IS NULL
        RETURNING company_id, net_cents::text`,
      [id, match.customerId, match.customerName],
    );
    for (const row of rows) {
      const key = JSON.stringify([row.company_id, 'transactions', 'customerId', match.customerId]);
      const delta = deltas.get(key) ?? { total: 0, net: 0n };
      delta.total += 1;
      delta.net += BigInt(row.net_cents);
      deltas.set(key, delta);
    }
  }
  await addCounts(client, deltas);
}

export const etransferMigration = `
CREATE TABLE IF NOT EXISTS etransfers (
  etransfer_id text PRIMARY KEY,
  company_id text NOT NULL,
  kind text NOT NULL,
  status text NOT NULL,
  customer_id text,
  email text NOT NULL,
  amount_cents bigint NOT NULL,
  currency text NOT NULL,
  message text,
  reference text,
  requested_by text,
  matched_by text,
  matched_by_user text,
  match_reason text,
  failure_reason text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz,
  completed_at timestamptz,
  position bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS etransfers_created_idx ON etransfers (company_id, created_at, etransfer_id);
CREATE INDEX IF NOT EXISTS etransfers_amount_idx ON etransfers (company_id, amount_cents, etransfer_id);
CREATE INDEX IF NOT EXISTS etransfers_status_idx ON etransfers (company_id, status, created_at);
CREATE INDEX IF NOT EXISTS etransfers_unmatched_idx
  ON etransfers (company_id, created_at) WHERE kind = 'incoming' AND customer_id IS NULL;
CREATE INDEX IF NOT EXISTS etransfers_customer_idx ON etransfers (customer_id);
CREATE INDEX IF NOT EXISTS etransfers_reference_idx
  ON etransfers (company_id, reference) WHERE reference IS NOT NULL;
-- Added with the invoice link: older rows stay null until the read model is rebuilt.
${addColumnIfMissing('etransfers', 'invoice_id', 'text')}
${addColumnIfMissing('etransfers', 'purpose', 'jsonb')}
`;
