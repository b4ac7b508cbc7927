import { z } from 'zod';
import { paymentCurrency, paymentPurpose } from '../payments/events';

/**
 * Events of the ETransfer stream (`ETransfer-<etransferId>`, one per Interac e-transfer: a money
 * request sent to a customer, an autodeposit nobody requested, or a payout to a customer).
 * Amounts are integer cents, CAD. Names and fields are stable forever: add optional fields,
 * never rename.
 */

/** How an incoming e-transfer found its customer; `manual` when a user matched it by hand. */
export const etransferMatchMethods = ['email', 'reference', 'manual'] as const;
export const etransferMatchMethod = z.enum(etransferMatchMethods);
export type EtransferMatchMethod = (typeof etransferMatchMethods)[number];

/** Why the provider could not deliver a payout (the simulator forces each by the recipient email). */
export const payoutFailureReasons = [
  'recipient_not_registered',
  'recipient_limit_exceeded',
  'provider_error',
] as const;
export const payoutFailureReason = z.enum(payoutFailureReasons);
export type PayoutFailureReason = (typeof payoutFailureReasons)[number];

const ids = { etransferId: z.string(), companyId: z.string() };
const cents = z.number().int();
const providerEvent = { providerEventId: z.string() };

export const etransferRequestedData = z.object({
  ...ids,
  customerId: z.string(),
  /** Where the request was sent (the customer's email at the time). */
  recipientEmail: z.string(),
  amountCents: cents,
  currency: paymentCurrency,
  message: z.string().nullable(),
  reference: z.string().nullable(),
  requestedBy: z.string(),
  requestedAt: z.string(),
  expiresAt: z.string(),
  /** The subscription invoice this request collects (billing's requests only; absent before). */
  invoiceId: z.string().nullable().optional(),
  /** The token order this request collects (orders paid by e-transfer only; absent before). */
  orderId: z.string().nullable().optional(),
  /** What the request collects, for each reader's language (billing's and orders' requests). */
  purpose: paymentPurpose.optional(),
});
/** The provider accepted the request and notified the customer. */
export const etransferSentData = z.object({
  ...ids,
  providerTransferId: z.string(),
  sentAt: z.string(),
});
/** The customer paid the request: the money is in the company's balance. */
export const etransferDepositedData = z.object({
  ...ids,
  ...providerEvent,
  amountCents: cents,
  currency: paymentCurrency,
  depositedAt: z.string(),
});
export const etransferDeclinedData = z.object({
  ...ids,
  ...providerEvent,
  declinedAt: z.string(),
});
export const etransferCancelledData = z.object({
  ...ids,
  cancelledBy: z.string(),
  cancelledAt: z.string(),
});
export const etransferExpiredData = z.object({ ...ids, expiredAt: z.string() });
/**
 * An autodeposit nobody requested: credited at once. `customerId` is set when the sender email or
 * the reference matched a customer, null when it waits in the Unmatched view.
 */
export const incomingEtransferReceivedData = z.object({
  ...ids,
  ...providerEvent,
  providerTransferId: z.string(),
  fromEmail: z.string(),
  amountCents: cents,
  currency: paymentCurrency,
  reference: z.string().nullable(),
  customerId: z.string().nullable(),
  matchedBy: etransferMatchMethod.nullable(),
  receivedAt: z.string(),
});
/** A user matched an unmatched incoming e-transfer to a customer by hand. */
export const etransferMatchedData = z.object({
  ...ids,
  customerId: z.string(),
  reason: z.string(),
  matchedBy: z.string(),
  matchedAt: z.string(),
});
/** Money sent to a customer: recorded once the company wallet reserved it (never overdrawn). */
export const payoutRequestedData = z.object({
  ...ids,
  customerId: z.string(),
  recipientEmail: z.string(),
  amountCents: cents,
  currency: paymentCurrency,
  message: z.string().nullable(),
  requestedBy: z.string(),
  requestedAt: z.string(),
});
export const payoutSentData = z.object({
  ...ids,
  ...providerEvent,
  providerTransferId: z.string(),
  sentAt: z.string(),
});
/** The provider could not deliver: the amount returns to the balance. */
export const payoutFailedData = z.object({
  ...ids,
  ...providerEvent,
  amountCents: cents,
  reason: payoutFailureReason,
  failedAt: z.string(),
});

type Event<Type extends string, Schema extends z.ZodType> = { type: Type; data: z.infer<Schema> };

export type EtransferRequested = Event<'EtransferRequested', typeof etransferRequestedData>;
export type EtransferSent = Event<'EtransferSent', typeof etransferSentData>;
export type EtransferDeposited = Event<'EtransferDeposited', typeof etransferDepositedData>;
export type EtransferDeclined = Event<'EtransferDeclined', typeof etransferDeclinedData>;
export type EtransferCancelled = Event<'EtransferCancelled', typeof etransferCancelledData>;
export type EtransferExpired = Event<'EtransferExpired', typeof etransferExpiredData>;
export type IncomingEtransferReceived = Event<
  'IncomingEtransferReceived',
  typeof incomingEtransferReceivedData
>;
export type EtransferMatched = Event<'EtransferMatched', typeof etransferMatchedData>;
export type PayoutRequested = Event<'PayoutRequested', typeof payoutRequestedData>;
export type PayoutSent = Event<'PayoutSent', typeof payoutSentData>;
export type PayoutFailed = Event<'PayoutFailed', typeof payoutFailedData>;

export type EtransferEvent =
  | EtransferRequested
  | EtransferSent
  | EtransferDeposited
  | EtransferDeclined
  | EtransferCancelled
  | EtransferExpired
  | IncomingEtransferReceived
  | EtransferMatched
  | PayoutRequested
  | PayoutSent
  | PayoutFailed;

export const etransferEventSchemas = {
  EtransferRequested: etransferRequestedData,
  EtransferSent: etransferSentData,
  EtransferDeposited: etransferDepositedData,
  EtransferDeclined: etransferDeclinedData,
  EtransferCancelled: etransferCancelledData,
  EtransferExpired: etransferExpiredData,
  IncomingEtransferReceived: incomingEtransferReceivedData,
  EtransferMatched: etransferMatchedData,
  PayoutRequested: payoutRequestedData,
  PayoutSent: payoutSentData,
  PayoutFailed: payoutFailedData,
} as const satisfies Record<EtransferEvent['type'], z.ZodType>;

export const etransferEventTypes = Object.keys(etransferEventSchemas) as EtransferEvent['type'][];

/** Narrows a stored event to an e-transfer event by its type; undefined for any other type. */
export function asEtransferEvent(event: {
  type: string;
  data: unknown;
}): EtransferEvent | undefined {
  return Object.hasOwn(etransferEventSchemas, event.type) ? (event as EtransferEvent) : undefined;
}

/**
 * Events of the CompanyWallet stream (`CompanyWallet-<companyId>`): every credit and debit of the
 * company's available balance, so that a payout is decided on the stream's revision and can never
 * overdraw it. `entryId` is the money movement's own id (payment, refund, e-transfer): a repeat
 * changes nothing. Write-side bookkeeping; the ledger read model carries the same facts.
 */
export const walletEntrySources = [
  'payment',
  'refund',
  'refund_failed',
  'etransfer',
  'payout',
  'payout_failed',
] as const;
export const walletEntrySource = z.enum(walletEntrySources);
export type WalletEntrySource = (typeof walletEntrySources)[number];

const walletEntry = {
  companyId: z.string(),
  entryId: z.string(),
  source: walletEntrySource,
  amountCents: cents,
  recordedAt: z.string(),
};
export const walletCreditedData = z.object(walletEntry);
export const walletDebitedData = z.object(walletEntry);

export type WalletCredited = Event<'WalletCredited', typeof walletCreditedData>;
export type WalletDebited = Event<'WalletDebited', typeof walletDebitedData>;
export type WalletEvent = WalletCredited | WalletDebited;

export const walletEventSchemas = {
  WalletCredited: walletCreditedData,
  WalletDebited: walletDebitedData,
} as const satisfies Record<WalletEvent['type'], z.ZodType>;
