import type { DeclineReason, PaymentEvent, PaymentPurpose } from '@issuer/events';

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

export interface RefundRow {
  id: string;
  amountCents: number;
  reason: string;
  refundedBy: string;
  refundedAt: string;
  /**
   * `pending` until the processor confirms it (`succeeded`); `failed` once it refused it: it no
   * longer counts in refundedCents.
   */
  status: 'pending' | 'succeeded' | 'failed';
  failureReason: string | null;
}

/** One payment as the Payment resource shows it. */
export interface PaymentRow {
  id: string;
  companyId: string;
  terminalId: string;
  terminalName: string | null;
  amountCents: number;
  currency: 'CAD';
  customerId: string | null;
  customerName: string | null;
  description: string | null;
  /** A token order's or an invoice's payment: what it pays, for each reader's language. */
  purpose: PaymentPurpose | null;
  status: PaymentStatus;
  declineReason: DeclineReason | null;
  cardBrand: string | null;
  cardLast4: string | null;
  refundedCents: number;
  refunds: RefundRow[];
  requestedBy: string;
  requestedAt: string;
  expiresAt: string;
  completedAt: string | null;
  position: bigint;
}

export interface Names {
  customer(id: string | null): string | null;
  terminal(id: string): string | null;
}

/**
 * Undefined when the event cannot apply (anything before PaymentRequested). "pending" covers
 * requested, sent to the terminal and authorized-not-yet-captured.
 */
export function evolvePaymentRow(
  row: PaymentRow | undefined,
  event: PaymentEvent,
  position: bigint,
  names: Names,
): PaymentRow | undefined {
  if (event.type === 'PaymentRequested') {
    const { data } = event;
    return {
      id: data.paymentId,
      companyId: data.companyId,
      terminalId: data.terminalId,
      terminalName: names.terminal(data.terminalId),
      amountCents: data.amountCents,
      currency: data.currency,
      customerId: data.customerId,
      customerName: names.customer(data.customerId),
      description: data.description,
      purpose: data.purpose ?? null,
      status: 'pending',
      declineReason: null,
      cardBrand: null,
      cardLast4: null,
      refundedCents: 0,
      refunds: [],
      requestedBy: data.requestedBy,
      requestedAt: data.requestedAt,
      expiresAt: data.expiresAt,
      completedAt: null,
      position,
    };
  }
  if (!row) return undefined;
  switch (event.type) {
    case 'PaymentSentToTerminal':
      return { ...row, position };
    case 'PaymentAuthorized':
      return { ...row, cardBrand: event.data.cardBrand, cardLast4: event.data.cardLast4, position };
    case 'PaymentCaptured':
      return {
        ...row,
        amountCents: event.data.amountCents,
        status: 'captured',
        completedAt: event.data.capturedAt,
        position,
      };
    case 'PaymentDeclined':
      return {
        ...row,
        status: 'declined',
        declineReason: event.data.reason,
        completedAt: event.data.declinedAt,
        position,
      };
    case 'PaymentCancelled':
      return { ...row, status: 'cancelled', completedAt: event.data.cancelledAt, position };
    case 'PaymentExpired':
      return { ...row, status: 'expired', completedAt: event.data.expiredAt, position };
    case 'PaymentRefunded': {
      const { refundId, amountCents, reason, refundedBy, refundedAt } = event.data;
      const refundedCents = row.refundedCents + amountCents;
      const refund: RefundRow = {
        id: refundId,
        amountCents,
        reason,
        refundedBy,
        refundedAt,
        status: 'pending',
        failureReason: null,
      };
      return {
        ...row,
        refunds: [...row.refunds, refund],
        refundedCents,
        status: refundedStatus(row, refundedCents),
        position,
      };
    }
    case 'PaymentRefundConfirmed':
      return {
        ...row,
        refunds: row.refunds.map((refund) =>
          refund.id === event.data.refundId && refund.status === 'pending'
            ? { ...refund, status: 'succeeded' as const }
            : refund,
        ),
        position,
      };
    case 'PaymentRefundFailed': {
      const { refundId, amountCents, reason } = event.data;
      const refundedCents = row.refundedCents - amountCents;
      return {
        ...row,
        refunds: row.refunds.map((refund) =>
          refund.id === refundId
            ? { ...refund, status: 'failed' as const, failureReason: reason }
            : refund,
        ),
        refundedCents,
        status: refundedStatus(row, refundedCents),
        position,
      };
    }
    default: {
      const _exhaustive: never = event;
      return row;
    }
  }
}

function refundedStatus(row: PaymentRow, refundedCents: number): PaymentStatus {
  if (refundedCents <= 0) return 'captured';
  return refundedCents >= row.amountCents ? 'refunded' : 'partially_refunded';
}

export interface StoredPayment {
  payment_id: string;
  company_id: string;
  terminal_id: string;
  terminal_name: string | null;
  amount_cents: string;
  currency: 'CAD';
  customer_id: string | null;
  customer_name: string | null;
  description: string | null;
  purpose: PaymentPurpose | null;
  status: PaymentStatus;
  decline_reason: DeclineReason | null;
  card_brand: string | null;
  card_last4: string | null;
  refunded_cents: string;
  refunds: RefundRow[];
  requested_by: string;
  requested_at: Date;
  expires_at: Date;
  completed_at: Date | null;
  position: string;
}

export const paymentColumns = `payment_id, company_id, terminal_id, terminal_name, amount_cents,
  currency, customer_id, customer_name, description, purpose, status, decline_reason, card_brand,
  card_last4, refunded_cents, refunds, requested_by, requested_at, expires_at, completed_at,
  position`;

export function toPaymentRow(stored: StoredPayment): PaymentRow {
  return {
    id: stored.payment_id,
    companyId: stored.company_id,
    terminalId: stored.terminal_id,
    terminalName: stored.terminal_name,
    amountCents: Number(stored.amount_cents),
    currency: stored.currency,
    customerId: stored.customer_id,
    customerName: stored.customer_name,
    description: stored.description,
    purpose: stored.purpose,
    status: stored.status,
    declineReason: stored.decline_reason,
    cardBrand: stored.card_brand,
    cardLast4: stored.card_last4,
    refundedCents: Number(stored.refunded_cents),
    // Rows written before refunds could fail carry no status: they succeeded.
    refunds: stored.refunds.map((refund) => ({
      ...refund,
      status: refund.status ?? 'succeeded',
      failureReason: refund.failureReason ?? null,
    })),
    requestedBy: stored.requested_by,
    requestedAt: stored.requested_at.toISOString(),
    expiresAt: stored.expires_at.toISOString(),
    completedAt: stored.completed_at?.toISOString() ?? null,
    position: BigInt(stored.position),
  };
}
