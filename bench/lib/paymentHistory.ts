import { randomUUID } from 'node:crypto';
import type { PaymentEvent } from '@issuer/events';
import type pg from 'pg';
import { type BulkRow, insertBulkRows } from './loadHistory';

/**
 * Card payments as events, written straight into the PostgreSQL store's tables in big
 * transactions (what `es_append` writes; see bench/lib/loadHistory.ts). Each payment's stream is
 * what the write side appends for a card that approves: PaymentRequested, PaymentSentToTerminal,
 * PaymentAuthorized, PaymentCaptured; every 20th is then partly refunded (PaymentRefunded, then
 * the processor's PaymentRefundConfirmed).
 * Payments are a minute apart per company, so a million of them span about two years of
 * capture times; the companies take turns, so every batch touches all of them.
 */

export interface PaymentSeedCompany {
  companyId: string;
  userId: string;
  terminalIds: readonly string[];
  /** Customers the payments are taken for; every 4th payment has none. */
  customerIds: readonly string[];
  /** Money movements (captures + refunds) to seed for this company. */
  transactions: number;
}

export interface SeededPayments {
  payments: number;
  /** Captures and refunds, per company id. */
  transactions: Map<string, number>;
  events: number;
  seconds: number;
  firstCaptureAt: Date;
  /** Per company id: its last capture time. */
  lastCaptureAt: Map<string, Date>;
}

const start = Date.parse('2024-06-01T09:00:00.000Z');
const spacingMs = 60_000;
const refundEvery = 20;
const eventsPerTransaction = 25_000;
const items = [
  'Coffee beans',
  'Consultation',
  'Workshop seat',
  'Annual membership',
  'Gift card',
  'Catering',
  null,
];

/** Payments so that payments + refunds (every 20th) is `transactions`. */
export const paymentsFor = (transactions: number) =>
  Math.ceil((transactions * refundEvery) / (refundEvery + 1));

const iso = (ms: number) => new Date(ms).toISOString();

/** Payment `n` of a company: its stream's events, in order. */
function paymentEvents(company: PaymentSeedCompany, n: number): PaymentEvent[] {
  const paymentId = `pay_${randomUUID()}`;
  const ids = { paymentId, companyId: company.companyId };
  const at = start + n * spacingMs;
  const amountCents = 500 + ((n * 7_919) % 20_000);
  const terminalId = company.terminalIds[n % company.terminalIds.length] ?? '';
  const customerId =
    n % 4 === 3 || company.customerIds.length === 0
      ? null
      : (company.customerIds[n % company.customerIds.length] ?? null);
  const visa = n % 3 !== 0;
  const events: PaymentEvent[] = [
    {
      type: 'PaymentRequested',
      data: {
        ...ids,
        terminalId,
        amountCents,
        currency: 'CAD',
        customerId,
        description: items[n % items.length] ?? null,
        requestedBy: company.userId,
        requestedAt: iso(at),
        expiresAt: iso(at + 300_000),
      },
    },
    {
      type: 'PaymentSentToTerminal',
      data: { ...ids, terminalId, gatewayPaymentId: `sim_${paymentId}`, sentAt: iso(at + 100) },
    },
    {
      type: 'PaymentAuthorized',
      data: {
        ...ids,
        gatewayEventId: randomUUID(),
        amountCents,
        cardBrand: visa ? 'visa' : 'mastercard',
        cardLast4: visa ? '4242' : '4444',
        authorizedAt: iso(at + 20_000),
      },
    },
    {
      type: 'PaymentCaptured',
      data: {
        ...ids,
        gatewayEventId: randomUUID(),
        amountCents,
        currency: 'CAD',
        capturedAt: iso(at + 20_500),
      },
    },
  ];
  if (n % refundEvery === refundEvery - 1) {
    const refundId = `rf_${randomUUID()}`;
    events.push(
      {
        type: 'PaymentRefunded',
        data: {
          ...ids,
          refundId,
          amountCents: Math.floor(amountCents / 4),
          currency: 'CAD',
          reason: 'Returned in store',
          refundedBy: company.userId,
          refundedAt: iso(at + 40_000),
        },
      },
      // The processor's confirmation: a refund left pending would be asked about again.
      { type: 'PaymentRefundConfirmed', data: { ...ids, refundId, confirmedAt: iso(at + 41_000) } },
    );
  }
  return events;
}

export async function bulkLoadPayments(
  pool: pg.Pool,
  companies: readonly PaymentSeedCompany[],
  onProgress: (payments: number) => void,
): Promise<SeededPayments> {
  const started = performance.now();
  let batch: BulkRow[] = [];
  let events = 0;
  let payments = 0;
  let lastReport = 0;
  const transactions = new Map(companies.map((company) => [company.companyId, 0]));
  const lastCaptureAt = new Map<string, Date>();
  const flush = async () => {
    if (batch.length === 0) return;
    await insertBulkRows(pool, batch);
    events += batch.length;
    batch = [];
    if (payments - lastReport >= 100_000) {
      lastReport = payments;
      onProgress(payments);
    }
  };
  const counts = companies.map((company) => paymentsFor(company.transactions));
  const most = Math.max(0, ...counts);
  for (let n = 0; n < most; n += 1) {
    for (const [index, company] of companies.entries()) {
      if (n >= (counts[index] ?? 0)) continue;
      const stream = paymentEvents(company, n);
      const paymentId = stream[0]?.data.paymentId ?? '';
      for (const [revision, event] of stream.entries()) {
        batch.push({
          ord: batch.length,
          stream_id: `Payment-${paymentId}`,
          revision,
          id: randomUUID(),
          type: event.type,
          data: event.data,
          metadata: {
            companyId: company.companyId,
            userId: company.userId,
            correlationId: randomUUID(),
            causationId: null,
            occurredAt: iso(start + n * spacingMs),
            schemaVersion: 1,
          },
        });
      }
      payments += 1;
      const moved = stream.some((event) => event.type === 'PaymentRefunded') ? 2 : 1;
      transactions.set(company.companyId, (transactions.get(company.companyId) ?? 0) + moved);
      lastCaptureAt.set(company.companyId, new Date(start + n * spacingMs + 20_500));
    }
    if (batch.length >= eventsPerTransaction) await flush();
  }
  await flush();
  return {
    payments,
    transactions,
    events,
    seconds: (performance.now() - started) / 1000,
    firstCaptureAt: new Date(start + 20_500),
    lastCaptureAt,
  };
}
