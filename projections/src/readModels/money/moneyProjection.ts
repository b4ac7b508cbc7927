import {
  asEtransferEvent,
  asPaymentEvent,
  etransferEventTypes,
  ledgerAccounts,
  type PaymentEvent,
  paymentEventTypes,
  type RecordedEvent,
} from '@issuer/events';
import type { PoolClient } from 'pg';
import type { Projection } from '../../projection';
import {
  type EtransferRow,
  etransferMoneyMoved,
  evolveEtransferRow,
  loadEtransfers,
  matchTransactions,
  updateTransactionStatuses,
  upsertEtransfers,
} from './etransferRows';
import {
  captureEntryId,
  type LedgerLine,
  postLines,
  refundEntryId,
  refundFailedEntryId,
  transfer,
} from './ledger';
import { NameBook, nameEventTypes } from './names';
import {
  evolvePaymentRow,
  type PaymentRow,
  paymentColumns,
  type StoredPayment,
  toPaymentRow,
} from './paymentRows';
import { moneyMigration, moneyTables } from './schema';
import {
  addCounts,
  captureTransaction,
  failTransactions,
  insertTransactions,
  refundTransaction,
  type TransactionRow,
} from './transactionRows';

/**
 * Payments, transactions and the ledger in one read model. Per batch: load the payments and
 * names it touches, fold its events in memory in order, then write the changed payments, the new
 * transactions and ledger lines, the totals and the names. Payments ignore events at or before
 * their position; transactions and ledger entries have ids of their own and are inserted once;
 * so a replay changes nothing.
 */
export const moneyProjection: Projection = {
  name: 'money',
  handles: [...paymentEventTypes, ...etransferEventTypes, ...nameEventTypes],
  tables: moneyTables,
  async migrate(client) {
    await client.query(moneyMigration);
  },
  async apply(events, client) {
    const ids = idsOf(events);
    const etransfers = await loadEtransfers(client, ids.etransfers);
    // A deposit's event does not name the customer: its row does.
    const customers = [...etransfers.values()].flatMap((row) => row.customerId ?? []);
    const names = await NameBook.load(client, [...ids.customers, ...customers], ids.terminals);
    const before = await loadPayments(client, ids.payments);
    const after = new Map(before);
    const changed = new Set<string>();
    const transactions: TransactionRow[] = [];
    const failedRefunds: string[] = [];
    const lines: LedgerLine[] = [];
    const changedEtransfers = new Map<string, EtransferRow>();
    const statusChanges = new Map<string, string>();
    const matches = new Map<string, { customerId: string; customerName: string | null }>();
    for (const recorded of events) {
      const etransferEvent = asEtransferEvent(recorded);
      if (etransferEvent) {
        const id = etransferEvent.data.etransferId;
        const row = etransfers.get(id);
        if (row && row.position >= recorded.position) continue;
        const next = evolveEtransferRow(row, etransferEvent, recorded.position);
        if (!next) continue;
        etransfers.set(id, next);
        changedEtransfers.set(id, next);
        const name = names.customer(next.customerId);
        etransferMoneyMoved(
          etransferEvent,
          next,
          recorded.position,
          name,
          transactions,
          lines,
          statusChanges,
          matches,
        );
        continue;
      }
      const event = asPaymentEvent(recorded);
      if (!event) {
        names.apply(recorded);
        continue;
      }
      const id = event.data.paymentId;
      const row = after.get(id);
      if (row && row.position >= recorded.position) continue;
      const next = evolvePaymentRow(row, event, recorded.position, names);
      if (!next) continue;
      after.set(id, next);
      changed.add(id);
      moneyMoved(event, next, recorded.position, transactions, lines);
      if (event.type === 'PaymentRefundConfirmed')
        statusChanges.set(event.data.refundId, 'succeeded');
      if (event.type === 'PaymentRefundFailed') {
        failedRefunds.push(event.data.refundId);
        statusChanges.delete(event.data.refundId);
      }
    }
    const rows = [...changed].flatMap((id) => after.get(id) ?? []);
    await upsertPayments(client, rows);
    await addCounts(client, paymentCountChanges(rows, before));
    await upsertEtransfers(client, [...changedEtransfers.values()]);
    await insertTransactions(client, transactions);
    await failTransactions(client, failedRefunds);
    await updateTransactionStatuses(client, statusChanges);
    await matchTransactions(client, matches);
    await postLines(client, lines);
    await names.save(client);
  },
};

/** A capture or a refund: its transaction and its balanced ledger entry; a failed refund: its reversal. */
function moneyMoved(
  event: PaymentEvent,
  payment: PaymentRow,
  position: bigint,
  transactions: TransactionRow[],
  lines: LedgerLine[],
): void {
  const available = ledgerAccounts.companyAvailable(payment.companyId);
  const common = { companyId: payment.companyId, paymentId: payment.id, position };
  if (event.type === 'PaymentCaptured') {
    transactions.push(captureTransaction(payment, position));
    lines.push(
      ...transfer({
        ...common,
        entryId: captureEntryId(payment.id),
        debit: ledgerAccounts.externalCard,
        credit: available,
        amountCents: event.data.amountCents,
        postedAt: event.data.capturedAt,
      }),
    );
  } else if (event.type === 'PaymentRefunded') {
    const refund = { ...event.data, id: event.data.refundId };
    transactions.push(refundTransaction(payment, refund, position));
    lines.push(
      ...transfer({
        ...common,
        entryId: refundEntryId(refund.id),
        debit: available,
        credit: ledgerAccounts.externalCard,
        amountCents: refund.amountCents,
        postedAt: refund.refundedAt,
      }),
    );
  } else if (event.type === 'PaymentRefundFailed') {
    lines.push(
      ...transfer({
        ...common,
        entryId: refundFailedEntryId(event.data.refundId),
        debit: ledgerAccounts.externalCard,
        credit: available,
        amountCents: event.data.amountCents,
        postedAt: event.data.failedAt,
      }),
    );
  }
}

function idsOf(events: readonly RecordedEvent[]) {
  const payments = new Set<string>();
  const etransfers = new Set<string>();
  const customers = new Set<string>();
  const terminals = new Set<string>();
  for (const recorded of events) {
    const data = recorded.data as { paymentId?: string; customerId?: string | null };
    const { terminalId, etransferId } = recorded.data as {
      terminalId?: string;
      etransferId?: string;
    };
    if (asPaymentEvent(recorded) && data.paymentId) payments.add(data.paymentId);
    if (asEtransferEvent(recorded) && etransferId) etransfers.add(etransferId);
    if (data.customerId) customers.add(data.customerId);
    if (terminalId) terminals.add(terminalId);
  }
  return {
    payments: [...payments],
    etransfers: [...etransfers],
    customers: [...customers],
    terminals: [...terminals],
  };
}

async function loadPayments(
  client: PoolClient,
  ids: readonly string[],
): Promise<Map<string, PaymentRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await client.query<StoredPayment>(
    `SELECT ${paymentColumns} FROM payments WHERE payment_id = ANY($1)`,
    [ids],
  );
  return new Map(rows.map((stored) => [stored.payment_id, toPaymentRow(stored)]));
}

const paymentCountKeys = (row: PaymentRow | undefined) =>
  row
    ? [
        JSON.stringify([row.companyId, 'payments', 'all', '']),
        JSON.stringify([row.companyId, 'payments', 'status', row.status]),
      ]
    : [];

function paymentCountChanges(rows: readonly PaymentRow[], before: ReadonlyMap<string, PaymentRow>) {
  const deltas = new Map<string, { total: number; net: bigint }>();
  const add = (key: string, by: number) => {
    const delta = deltas.get(key) ?? { total: 0, net: 0n };
    delta.total += by;
    deltas.set(key, delta);
  };
  for (const row of rows) {
    for (const key of paymentCountKeys(before.get(row.id))) add(key, -1);
    for (const key of paymentCountKeys(row)) add(key, 1);
  }
  return deltas;
}

async function upsertPayments(client: PoolClient, rows: readonly PaymentRow[]): Promise<void> {
  if (rows.length === 0) return;
  const records = rows.map((row) => ({ ...row, position: row.position.toString() }));
  await client.query(
    `INSERT INTO payments AS p (${paymentColumns})
     SELECT id, "companyId", "terminalId", "terminalName", "amountCents", currency, "customerId",
            "customerName", description, purpose, status, "declineReason", "cardBrand", "cardLast4",
            "refundedCents", refunds, "requestedBy", "requestedAt", "expiresAt", "completedAt",
            position
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, "companyId" text, "terminalId" text,
         "terminalName" text, "amountCents" bigint, currency text, "customerId" text,
         "customerName" text, description text, purpose jsonb, status text, "declineReason" text,
         "cardBrand" text, "cardLast4" text, "refundedCents" bigint, refunds jsonb,
         "requestedBy" text, "requestedAt" timestamptz, "expiresAt" timestamptz,
         "completedAt" timestamptz, position bigint)
     ON CONFLICT (payment_id) DO UPDATE SET
       terminal_name = EXCLUDED.terminal_name, amount_cents = EXCLUDED.amount_cents,
       customer_name = EXCLUDED.customer_name, status = EXCLUDED.status,
       decline_reason = EXCLUDED.decline_reason, card_brand = EXCLUDED.card_brand,
       card_last4 = EXCLUDED.card_last4, refunded_cents = EXCLUDED.refunded_cents,
       refunds = EXCLUDED.refunds, completed_at = EXCLUDED.completed_at,
       position = EXCLUDED.position
     WHERE p.position < EXCLUDED.position`,
    [JSON.stringify(records)],
  );
}
