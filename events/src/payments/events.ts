import { z } from 'zod';

/**
 * Events of the Payment stream (`Payment-<paymentId>`, one per card payment taken on a terminal,
 * its company id in the data and the metadata). The stream guards the payment's own invariants:
 * one charge, refunds never above what was captured. Amounts are integer cents.
 * Names and fields are stable forever: add optional fields, never rename.
 */

export const paymentCurrencies = ['CAD'] as const;
export const paymentCurrency = z.enum(paymentCurrencies);
export type PaymentCurrency = (typeof paymentCurrencies)[number];

/** Why the processor refused a card, as Stripe names its decline codes. */
export const declineReasons = [
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
  'processing_error',
] as const;
export const declineReason = z.enum(declineReasons);
export type DeclineReason = (typeof declineReasons)[number];

const ids = { paymentId: z.string(), companyId: z.string() };
const cents = z.number().int();

/**
 * What a payment the portal asked for itself pays, so each reader's language can say it (the
 * description stays as written, in English, for the terminal and the API).
 */
export const paymentPurpose = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('token_order'),
    orderId: z.string(),
    roundName: z.string(),
    tokens: z.number().int(),
  }),
  z.object({
    kind: z.literal('invoice'),
    /** Absent on payments requested before the field was added. */
    invoiceId: z.string().optional(),
    invoiceNumber: z.string(),
    planName: z.string(),
  }),
]);
export type PaymentPurpose = z.infer<typeof paymentPurpose>;

export const paymentRequestedData = z.object({
  ...ids,
  terminalId: z.string(),
  amountCents: cents,
  currency: paymentCurrency,
  customerId: z.string().nullable(),
  description: z.string().nullable(),
  /** Set on payments the portal requested for a token order or an invoice. */
  purpose: paymentPurpose.optional(),
  requestedBy: z.string(),
  requestedAt: z.string(),
  /** When the payment expires if no card was presented (requestedAt + the configured timeout). */
  expiresAt: z.string(),
  /** The customer agreed to have the card saved for later charges (Stripe's setup_future_usage). */
  saveCard: z.boolean().optional(),
  /**
   * An off-session charge of a saved card (no terminal, no card present): `terminalId` is then
   * `off_session`, and the token travels here so a resend after a crash needs nothing else.
   */
  paymentMethodId: z.string().optional(),
  cardToken: z.string().optional(),
});
/** The gateway accepted the request (idempotency key = paymentId); the terminal now waits for a card. */
export const paymentSentToTerminalData = z.object({
  ...ids,
  terminalId: z.string(),
  gatewayPaymentId: z.string(),
  sentAt: z.string(),
});
export const paymentAuthorizedData = z.object({
  ...ids,
  gatewayEventId: z.string(),
  amountCents: cents,
  cardBrand: z.string(),
  cardLast4: z.string(),
  authorizedAt: z.string(),
});
export const paymentCapturedData = z.object({
  ...ids,
  gatewayEventId: z.string(),
  amountCents: cents,
  currency: paymentCurrency,
  capturedAt: z.string(),
});
export const paymentDeclinedData = z.object({
  ...ids,
  gatewayEventId: z.string(),
  reason: declineReason,
  declinedAt: z.string(),
});
export const paymentCancelledData = z.object({
  ...ids,
  cancelledBy: z.string(),
  cancelledAt: z.string(),
});
export const paymentExpiredData = z.object({ ...ids, expiredAt: z.string() });
export const paymentRefundedData = z.object({
  ...ids,
  refundId: z.string(),
  amountCents: cents,
  currency: paymentCurrency,
  reason: z.string(),
  refundedBy: z.string(),
  refundedAt: z.string(),
});

/**
 * The processor confirmed a recorded refund: the money is on its way back to the card. Until
 * then the refund is pending (the scheduler keeps asking the processor, idempotent by refundId).
 */
export const paymentRefundConfirmedData = z.object({
  ...ids,
  refundId: z.string(),
  confirmedAt: z.string(),
});

/**
 * The processor refused a recorded refund for good (a transient failure is retried instead): the
 * money never went back to the card, so the refund counts no more and the balance gets it back.
 * `reason` is the processor's, e.g. Stripe's `expired_or_canceled_card`.
 */
export const paymentRefundFailedData = z.object({
  ...ids,
  refundId: z.string(),
  amountCents: cents,
  currency: paymentCurrency,
  reason: z.string(),
  failedAt: z.string(),
});

type Event<Type extends string, Schema extends z.ZodType> = { type: Type; data: z.infer<Schema> };

export type PaymentRequested = Event<'PaymentRequested', typeof paymentRequestedData>;
export type PaymentSentToTerminal = Event<
  'PaymentSentToTerminal',
  typeof paymentSentToTerminalData
>;
export type PaymentAuthorized = Event<'PaymentAuthorized', typeof paymentAuthorizedData>;
export type PaymentCaptured = Event<'PaymentCaptured', typeof paymentCapturedData>;
export type PaymentDeclined = Event<'PaymentDeclined', typeof paymentDeclinedData>;
export type PaymentCancelled = Event<'PaymentCancelled', typeof paymentCancelledData>;
export type PaymentExpired = Event<'PaymentExpired', typeof paymentExpiredData>;
export type PaymentRefunded = Event<'PaymentRefunded', typeof paymentRefundedData>;
export type PaymentRefundConfirmed = Event<
  'PaymentRefundConfirmed',
  typeof paymentRefundConfirmedData
>;
export type PaymentRefundFailed = Event<'PaymentRefundFailed', typeof paymentRefundFailedData>;

export type PaymentEvent =
  | PaymentRequested
  | PaymentSentToTerminal
  | PaymentAuthorized
  | PaymentCaptured
  | PaymentDeclined
  | PaymentCancelled
  | PaymentExpired
  | PaymentRefunded
  | PaymentRefundConfirmed
  | PaymentRefundFailed;

export const paymentEventSchemas = {
  PaymentRequested: paymentRequestedData,
  PaymentSentToTerminal: paymentSentToTerminalData,
  PaymentAuthorized: paymentAuthorizedData,
  PaymentCaptured: paymentCapturedData,
  PaymentDeclined: paymentDeclinedData,
  PaymentCancelled: paymentCancelledData,
  PaymentExpired: paymentExpiredData,
  PaymentRefunded: paymentRefundedData,
  PaymentRefundConfirmed: paymentRefundConfirmedData,
  PaymentRefundFailed: paymentRefundFailedData,
} as const satisfies Record<PaymentEvent['type'], z.ZodType>;

export const paymentEventTypes = Object.keys(paymentEventSchemas) as PaymentEvent['type'][];

/** Narrows a stored event to a payment event by its type; undefined for any other type. */
export function asPaymentEvent(event: { type: string; data: unknown }): PaymentEvent | undefined {
  return Object.hasOwn(paymentEventSchemas, event.type) ? (event as PaymentEvent) : undefined;
}

/** Ledger accounts; a company's balance is what its `available` account holds. */
export const ledgerAccounts = {
  companyAvailable: (companyId: string) => `company:${companyId}:available`,
  externalCard: 'external:card',
  externalEtransfer: 'external:etransfer',
} as const;
