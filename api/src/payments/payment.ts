import type { DeclineReason, PaymentCurrency, PaymentEvent, PaymentPurpose } from '@issuer/events';

/**
 * Where a payment stands: `pending` once requested, `sent` once the terminal waits for a card,
 * `authorized` when the card was accepted but not yet charged; the others are final, except that
 * a captured payment still takes refunds (and a capture reported after a cancel or an expiry is
 * still recorded: the money moved).
 */
export type PaymentStatus =
  | 'pending'
  | 'sent'
  | 'authorized'
  | 'captured'
  | 'declined'
  | 'cancelled'
  | 'expired';

/**
 * `pending` from when it is recorded until the processor confirms it (`succeeded`) or refuses it
 * for good (`failed`: it no longer counts as refunded). A pending refund already counts.
 */
export type RefundStatus = 'pending' | 'succeeded' | 'failed';

export interface PaymentRefund {
  id: string;
  amountCents: number;
  reason: string;
  refundedBy: string;
  refundedAt: string;
  status: RefundStatus;
  /** The processor's reason for a failed refund; null otherwise. */
  failureReason: string | null;
}

export interface PaymentDetails {
  status: PaymentStatus;
  paymentId: string;
  companyId: string;
  terminalId: string;
  amountCents: number;
  currency: PaymentCurrency;
  customerId: string | null;
  description: string | null;
  /** What the portal asked this payment for (a token order, an invoice); null when a person did. */
  purpose: PaymentPurpose | null;
  requestedBy: string;
  requestedAt: string;
  expiresAt: string;
  /** The customer agreed to have the card saved once the payment is captured. */
  saveCard: boolean;
  /** An off-session charge of this saved card (and its token, for a resend); null at a terminal. */
  paymentMethodId: string | null;
  cardToken: string | null;
  gatewayPaymentId: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
  authorizedAt: string | null;
  capturedCents: number;
  capturedAt: string | null;
  declineReason: DeclineReason | null;
  /** When the payment reached its final status (captured, declined, cancelled or expired). */
  completedAt: string | null;
  refundedCents: number;
  refunds: readonly PaymentRefund[];
  /** The processor's event ids already recorded: a redelivered webhook changes nothing. */
  seenGatewayEventIds: readonly string[];
}

export type Payment = { status: 'none' } | PaymentDetails;

export const initialPayment = (): Payment => ({ status: 'none' });

/** A payment that exists (typed narrowing for callers outside the decider). */
export const isPayment = (state: Payment): state is PaymentDetails => state.status !== 'none';

export function evolvePayment(state: Payment, event: PaymentEvent): Payment {
  if (event.type === 'PaymentRequested') return requested(event.data);
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'PaymentSentToTerminal':
      return {
        ...state,
        status: state.status === 'pending' ? 'sent' : state.status,
        gatewayPaymentId: event.data.gatewayPaymentId,
      };
    case 'PaymentAuthorized': {
      const { cardBrand, cardLast4, authorizedAt, gatewayEventId } = event.data;
      return {
        ...seen(state, gatewayEventId),
        status: state.status === 'pending' || state.status === 'sent' ? 'authorized' : state.status,
        cardBrand,
        cardLast4,
        authorizedAt,
      };
    }
    case 'PaymentCaptured': {
      const { amountCents, capturedAt, gatewayEventId } = event.data;
      return {
        ...seen(state, gatewayEventId),
        status: 'captured',
        capturedCents: amountCents,
        capturedAt,
        completedAt: capturedAt,
      };
    }
    case 'PaymentDeclined': {
      const { reason, declinedAt, gatewayEventId } = event.data;
      return {
        ...seen(state, gatewayEventId),
        status: 'declined',
        declineReason: reason,
        completedAt: declinedAt,
      };
    }
    case 'PaymentCancelled':
      return { ...state, status: 'cancelled', completedAt: event.data.cancelledAt };
    case 'PaymentExpired':
      return { ...state, status: 'expired', completedAt: event.data.expiredAt };
    case 'PaymentRefunded': {
      const { refundId, amountCents, reason, refundedBy, refundedAt } = event.data;
      return {
        ...state,
        refundedCents: state.refundedCents + amountCents,
        refunds: [
          ...state.refunds,
          {
            id: refundId,
            amountCents,
            reason,
            refundedBy,
            refundedAt,
            status: 'pending',
            failureReason: null,
          },
        ],
      };
    }
    case 'PaymentRefundConfirmed':
      return {
        ...state,
        refunds: state.refunds.map((refund) =>
          refund.id === event.data.refundId && refund.status === 'pending'
            ? { ...refund, status: 'succeeded' as const }
            : refund,
        ),
      };
    case 'PaymentRefundFailed': {
      const { refundId, amountCents, reason } = event.data;
      return {
        ...state,
        refundedCents: state.refundedCents - amountCents,
        refunds: state.refunds.map((refund) =>
          refund.id === refundId
            ? { ...refund, status: 'failed' as const, failureReason: reason }
            : refund,
        ),
      };
    }
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}

function requested(data: Extract<PaymentEvent, { type: 'PaymentRequested' }>['data']): Payment {
  return {
    status: 'pending',
    paymentId: data.paymentId,
    companyId: data.companyId,
    terminalId: data.terminalId,
    amountCents: data.amountCents,
    currency: data.currency,
    customerId: data.customerId,
    description: data.description,
    purpose: data.purpose ?? null,
    requestedBy: data.requestedBy,
    requestedAt: data.requestedAt,
    expiresAt: data.expiresAt,
    saveCard: data.saveCard === true,
    paymentMethodId: data.paymentMethodId ?? null,
    cardToken: data.cardToken ?? null,
    gatewayPaymentId: null,
    cardBrand: null,
    cardLast4: null,
    authorizedAt: null,
    capturedCents: 0,
    capturedAt: null,
    declineReason: null,
    completedAt: null,
    refundedCents: 0,
    refunds: [],
    seenGatewayEventIds: [],
  };
}

function seen(state: PaymentDetails, gatewayEventId: string): PaymentDetails {
  if (state.seenGatewayEventIds.includes(gatewayEventId)) return state;
  return { ...state, seenGatewayEventIds: [...state.seenGatewayEventIds, gatewayEventId] };
}

/** What a refund may still return; 0 unless captured. */
export function refundableCents(state: PaymentDetails): number {
  return state.status === 'captured' ? state.capturedCents - state.refundedCents : 0;
}
