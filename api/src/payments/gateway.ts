import type { DeclineReason, PaymentCurrency } from '@issuer/events';

/**
 * The port to a card-present processor (Stripe Terminal and the like). The simulator is the only
 * adapter today; a real processor is a second adapter behind this interface, never a change to
 * the payment's decider. Every call is idempotent by the key it carries, so a retry after a crash
 * never charges twice.
 */
export interface PaymentTerminalGateway {
  /** `simulator` while the built-in terminal simulator is the adapter (its sandbox routes exist only then). */
  readonly name: string;
  /**
   * Puts the payment on the terminal, waiting for a card. Idempotent by `paymentId`: a second call
   * for the same payment answers the same `gatewayPaymentId` and charges nothing new.
   */
  sendPayment(request: TerminalPaymentRequest): Promise<{ gatewayPaymentId: string }>;
  /**
   * Charges a saved card off-session (no terminal, no card present), as Stripe's PaymentIntent
   * with `off_session: true`. Idempotent by `paymentId`; the outcome comes back by webhook like a
   * terminal payment's (authorized and captured, or declined).
   */
  chargeSavedCard(request: SavedCardChargeRequest): Promise<{ gatewayPaymentId: string }>;
  /** Clears a payment still waiting on its terminal; a payment already decided stays as it is. */
  cancelPayment(request: { paymentId: string; terminalId: string }): Promise<void>;
  /**
   * Returns money of a captured payment to the card. Idempotent by `refundId`. Throws
   * `RefundRefused` when the processor refuses it for good (asking again changes nothing); any
   * other error is transient (network, 5xx) and the same call may be retried.
   */
  refundPayment(request: {
    paymentId: string;
    refundId: string;
    amountCents: number;
    currency: PaymentCurrency;
  }): Promise<void>;
}

export interface TerminalPaymentRequest {
  paymentId: string;
  companyId: string;
  terminalId: string;
  amountCents: number;
  currency: PaymentCurrency;
  /** The processor stops waiting for a card at this time. */
  expiresAt: string;
  /** The customer agreed to have the card saved: the capture's webhook carries a reusable token. */
  saveCard?: boolean;
}

/** The terminal id an off-session charge of a saved card is recorded under: no terminal took it. */
export const offSessionTerminalId = 'off_session';

export interface SavedCardChargeRequest {
  paymentId: string;
  companyId: string;
  /** The processor's reusable token of the saved card (never a card number). */
  cardToken: string;
  amountCents: number;
  currency: PaymentCurrency;
}

/** What the capture of a payment with `saveCard` hands back: the card, reusable, without its number. */
export interface SavedCardDetails {
  cardToken: string;
  cardExpMonth: number;
  cardExpYear: number;
}

/**
 * What the processor reports back through a signed webhook. Delivered at least once, sometimes
 * twice (same `id`) and in any order; the payment's stream ignores an `id` it has seen.
 */
export type GatewayEvent =
  | (GatewayEventBase & {
      type: 'payment.authorized' | 'payment.captured';
      amountCents: number;
      cardBrand: string;
      cardLast4: string;
    } & Partial<SavedCardDetails>)
  | (GatewayEventBase & { type: 'payment.declined'; reason: DeclineReason });

interface GatewayEventBase {
  /** The processor's event id: the deduplication key. */
  id: string;
  paymentId: string;
  gatewayPaymentId: string;
  occurredAt: string;
}

/** The processor refused a refund for good, with its reason (as Stripe's refund `failure_reason`). */
export class RefundRefused extends Error {
  constructor(readonly reason: string) {
    super(`The card processor refused the refund: ${reason}`);
    this.name = 'RefundRefused';
  }
}

/** The error code a refusal travels under between the simulator's server and its HTTP client. */
export const refundRefusedCode = 'refund_refused';
