import type { RaRecord } from 'react-admin';
import { apiUrl, callApi, httpClient } from '../session/http';
import { readStored, storageKeys } from '../session/storage';
import type { PaymentPurpose } from './paymentDescription';

export const paymentStatuses = [
  'pending',
  'captured',
  'partially_refunded',
  'refunded',
  'declined',
  'cancelled',
  'expired',
] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export const declineReasons = [
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
  'processing_error',
] as const;
export type DeclineReason = (typeof declineReasons)[number];

export interface Refund {
  id: string;
  amountCents: number;
  reason: string;
  refundedBy: string;
  refundedAt: string;
  /**
   * `pending` until the card processor confirms it; `failed`: the processor refused it, so it no
   * longer counts as refunded.
   */
  status: 'pending' | 'succeeded' | 'failed';
  failureReason: string | null;
}

/** A payment as the API answers it (the payments contract). */
export interface Payment extends RaRecord {
  id: string;
  terminalId: string;
  terminalName: string | null;
  amountCents: number;
  currency: 'CAD';
  customerId: string | null;
  customerName: string | null;
  description: string | null;
  purpose?: PaymentPurpose | null;
  status: PaymentStatus;
  declineReason: DeclineReason | null;
  cardBrand: string | null;
  cardLast4: string | null;
  refundedCents: number;
  refundableCents: number;
  refunds: Refund[];
  requestedBy: string;
  requestedAt: string;
  expiresAt: string;
  completedAt: string | null;
}

export const transactionKinds = ['payment', 'refund', 'etransfer', 'payout'] as const;
export const transactionStatuses = ['succeeded', 'pending', 'failed'] as const;

/** One money movement (`GET /api/transactions`). */
export interface Transaction extends RaRecord {
  id: string;
  kind: string;
  status: string;
  amountCents: number;
  netCents: number;
  currency: 'CAD';
  paymentId: string;
  refundReason: string | null;
  customerId: string | null;
  customerName: string | null;
  terminalId: string | null;
  terminalName: string | null;
  description: string | null;
  purpose?: PaymentPurpose | null;
  cardBrand: string | null;
  cardLast4: string | null;
  createdAt: string;
}

/** A registered payment terminal (`GET /api/terminals`). */
export interface Terminal extends RaRecord {
  id: string;
  name: string;
  deviceId: string;
  slot: number;
}

export interface NewPayment {
  terminalId: string;
  amountCents: number;
  customerId?: string;
  description?: string;
  /** The customer agreed to have the card saved for later charges. */
  saveCard?: boolean;
}

const paymentPath = (id: string) => `/payments/${encodeURIComponent(id)}`;

/**
 * Asks for a payment. `idempotencyKey` is made once per dialog, so a double click or a retry after
 * a lost answer never puts a second payment on the terminal.
 */
export async function requestPayment(payment: NewPayment, idempotencyKey: string) {
  const { json } = await httpClient(`${apiUrl}/payments`, {
    method: 'POST',
    headers: new Headers({ Accept: 'application/json', 'Idempotency-Key': idempotencyKey }),
    body: JSON.stringify({ ...payment, currency: 'CAD' }),
  });
  return json as Payment;
}

export const fetchPayment = (id: string) => callApi<Payment>(paymentPath(id));

export const cancelPayment = (id: string) =>
  callApi<Payment>(`${paymentPath(id)}/cancel`, { method: 'POST' });

export async function refundPayment(
  id: string,
  refund: { amountCents: number; reason: string },
  idempotencyKey: string,
) {
  const { json } = await httpClient(`${apiUrl}${paymentPath(id)}/refunds`, {
    method: 'POST',
    headers: new Headers({ Accept: 'application/json', 'Idempotency-Key': idempotencyKey }),
    body: JSON.stringify(refund),
  });
  return json as Payment;
}

/** The simulator's test cards (Stripe's numbers) that the Simulate card menu offers. */
export const testCards = {
  approve: '4242424242424242',
  declined: '4000000000000002',
  insufficient_funds: '4000000000009995',
  expired_card: '4000000000000069',
} as const;
export type TestCard = keyof typeof testCards;

/** Answers only while the simulator is the gateway (404 otherwise): whether to offer Simulate card. */
export const fetchSimulator = (terminalId: string) =>
  callApi<{ terminalId: string }>(`/terminals/${encodeURIComponent(terminalId)}/simulator`);

/** The card goes to `paymentId` (not merely the oldest payment waiting on that terminal). */
export const presentCard = (terminalId: string, paymentId: string, card: TestCard) =>
  callApi<{ paymentId: string }>(
    `/terminals/${encodeURIComponent(terminalId)}/simulator/present-card`,
    { method: 'POST', body: { card: testCards[card], paymentId } },
  );

/** The query string of a list call: the same `filter` and `sort` the list sends. */
export function listQuery(filter: Record<string, unknown>, sort?: [string, string]) {
  const query = new URLSearchParams({ filter: JSON.stringify(filter) });
  if (sort) query.set('sort', JSON.stringify(sort));
  return query;
}

/**
 * The server's streamed CSV of every transaction matching `filter`, saved as a file; fetched with
 * the token (a plain link could not carry it), as the customers export does.
 */
export async function downloadTransactions(
  filter: Record<string, unknown>,
  sort?: [string, string],
) {
  const token = readStored(storageKeys.token);
  const response = await fetch(`${apiUrl}/transactions/export.csv?${listQuery(filter, sort)}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = 'transactions.csv';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
