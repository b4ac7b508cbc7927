import { z } from 'zod';
import { paymentCurrency } from '../payments/events';

/**
 * Events of recurring billing. Three kinds of stream:
 * - `Plan-<planId>`: a price list entry (name, amount, interval, trial);
 * - `Subscription-<subscriptionId>`: one customer's subscription AND its invoices. An invoice is a
 *   set of events on its subscription's stream, so "one invoice per period" is decided on that
 *   stream's revision, and an invoice id is derived from (subscription id, period index);
 * - `BillingSettings-<companyId>`: the company's retry schedule and what follows the last failure.
 * Amounts are integer cents, CAD. Names and fields are stable forever: add optional fields only.
 */

export const planIntervals = ['week', 'month', 'year'] as const;
export const planInterval = z.enum(planIntervals);
export type PlanInterval = (typeof planIntervals)[number];

/**
 * `etransfer`: an Interac money request per period (the default); `card`: an off-session charge of
 * the customer's saved card (`paymentMethodId`). A card attempt names its payment (`paymentId`)
 * and leaves `etransferId` empty.
 */
export const collectionMethods = ['etransfer', 'card'] as const;
export const collectionMethod = z.enum(collectionMethods);
export type CollectionMethod = (typeof collectionMethods)[number];

/** What happens to a subscription when its invoice's last collection attempt fails. */
export const finalFailureActions = ['unpaid', 'cancel'] as const;
export const finalFailureAction = z.enum(finalFailureActions);
export type FinalFailureAction = (typeof finalFailureActions)[number];

export const collectionFailureReasons = ['declined', 'expired', 'cancelled', 'not_sent'] as const;
export const collectionFailureReason = z.enum(collectionFailureReasons);
export type CollectionFailureReason = (typeof collectionFailureReasons)[number];

export const cancellationReasons = ['requested', 'period_end', 'payment_failed'] as const;
export const cancellationReason = z.enum(cancellationReasons);

const cents = z.number().int();
const time = z.string();

/** A plan's billing terms, copied onto a subscription so that a later plan edit never reprices it. */
export const planTerms = {
  planId: z.string(),
  planName: z.string(),
  amountCents: cents,
  currency: paymentCurrency,
  interval: planInterval,
  intervalCount: z.number().int(),
};

const planFields = {
  planId: z.string(),
  companyId: z.string(),
  name: z.string(),
  amountCents: cents,
  currency: paymentCurrency,
  interval: planInterval,
  intervalCount: z.number().int(),
  trialDays: z.number().int(),
};
export const planCreatedData = z.object({ ...planFields, createdBy: z.string(), createdAt: time });
/** The plan's new terms, whole; subscriptions keep the terms they subscribed with. */
export const planUpdatedData = z.object({ ...planFields, updatedBy: z.string(), updatedAt: time });
export const planArchivedData = z.object({
  planId: z.string(),
  companyId: z.string(),
  archivedBy: z.string(),
  archivedAt: time,
});

const subscription = { subscriptionId: z.string(), companyId: z.string() };
const invoice = { ...subscription, invoiceId: z.string() };

/**
 * `billingAnchor` is when period 0 starts: `startAt`, or the trial's end. Period k starts
 * k intervals after the anchor of the terms in force (a plan change moves the anchor to the start
 * of the period it takes effect from).
 */
export const subscriptionCreatedData = z.object({
  ...subscription,
  customerId: z.string(),
  ...planTerms,
  collectionMethod,
  /** The saved card a `card` subscription charges. */
  paymentMethodId: z.string().optional(),
  startAt: time,
  trialEndsAt: time.nullable(),
  billingAnchor: time,
  createdBy: z.string(),
  createdAt: time,
});
/** An invoice for one period; `nextBillAt` is when the following period starts. */
export const invoiceIssuedData = z.object({
  ...invoice,
  customerId: z.string(),
  number: z.string(),
  periodIndex: z.number().int(),
  periodStart: time,
  periodEnd: time,
  ...planTerms,
  issuedAt: time,
});
/** One collection attempt: an e-transfer request (its id derived from invoice and attempt). */
export const invoiceCollectionAttemptedData = z.object({
  ...invoice,
  attempt: z.number().int(),
  etransferId: z.string(),
  /** A card attempt's off-session payment (its id derived from invoice and attempt). */
  paymentId: z.string().optional(),
  amountCents: cents,
  attemptedAt: time,
});
export const invoicePaidData = z.object({
  ...invoice,
  etransferId: z.string(),
  paymentId: z.string().optional(),
  amountCents: cents,
  paidAt: time,
});
/** `nextAttemptAt` null: it was the last attempt (the subscription becomes unpaid or cancelled). */
export const invoicePaymentFailedData = z.object({
  ...invoice,
  attempt: z.number().int(),
  etransferId: z.string(),
  paymentId: z.string().optional(),
  reason: collectionFailureReason,
  failedAt: time,
  nextAttemptAt: time.nullable(),
});
export const invoiceVoidedData = z.object({ ...invoice, voidedAt: time });
export const invoiceMarkedUncollectibleData = z.object({ ...invoice, markedAt: time });
export const subscriptionMarkedUnpaidData = z.object({ ...subscription, markedAt: time });
export const subscriptionPausedData = z.object({
  ...subscription,
  pausedBy: z.string(),
  pausedAt: time,
});
/** Billing goes on from the first period starting at or after the resume. */
export const subscriptionResumedData = z.object({
  ...subscription,
  resumedBy: z.string(),
  resumedAt: time,
  nextPeriodIndex: z.number().int(),
  nextBillAt: time,
});
export const subscriptionCancellationScheduledData = z.object({
  ...subscription,
  cancelAt: time,
  requestedBy: z.string(),
  requestedAt: time,
});
export const subscriptionCancelledData = z.object({
  ...subscription,
  reason: cancellationReason,
  /** Null when billing cancelled it (period end, last failed attempt). */
  cancelledBy: z.string().nullable(),
  cancelledAt: time,
});
/** From period `fromPeriodIndex` on, invoices use these terms. */
export const subscriptionPlanChangeScheduledData = z.object({
  ...subscription,
  ...planTerms,
  fromPeriodIndex: z.number().int(),
  requestedBy: z.string(),
  requestedAt: time,
});
export const billingSettingsUpdatedData = z.object({
  companyId: z.string(),
  /** Days after the first failed attempt at which it is tried again (default 1, 3, 5). */
  retryDays: z.array(z.number().int()),
  afterFinalFailure: finalFailureAction,
  updatedBy: z.string(),
  updatedAt: time,
});

type Event<Type extends string, Schema extends z.ZodType> = { type: Type; data: z.infer<Schema> };

export type PlanCreated = Event<'PlanCreated', typeof planCreatedData>;
export type PlanUpdated = Event<'PlanUpdated', typeof planUpdatedData>;
export type PlanArchived = Event<'PlanArchived', typeof planArchivedData>;
export type PlanEvent = PlanCreated | PlanUpdated | PlanArchived;

export type SubscriptionCreated = Event<'SubscriptionCreated', typeof subscriptionCreatedData>;
export type InvoiceIssued = Event<'InvoiceIssued', typeof invoiceIssuedData>;
export type InvoiceCollectionAttempted = Event<
  'InvoiceCollectionAttempted',
  typeof invoiceCollectionAttemptedData
>;
export type InvoicePaid = Event<'InvoicePaid', typeof invoicePaidData>;
export type InvoicePaymentFailed = Event<'InvoicePaymentFailed', typeof invoicePaymentFailedData>;
export type InvoiceVoided = Event<'InvoiceVoided', typeof invoiceVoidedData>;
export type InvoiceMarkedUncollectible = Event<
  'InvoiceMarkedUncollectible',
  typeof invoiceMarkedUncollectibleData
>;
export type SubscriptionMarkedUnpaid = Event<
  'SubscriptionMarkedUnpaid',
  typeof subscriptionMarkedUnpaidData
>;
export type SubscriptionPaused = Event<'SubscriptionPaused', typeof subscriptionPausedData>;
export type SubscriptionResumed = Event<'SubscriptionResumed', typeof subscriptionResumedData>;
export type SubscriptionCancellationScheduled = Event<
  'SubscriptionCancellationScheduled',
  typeof subscriptionCancellationScheduledData
>;
export type SubscriptionCancelled = Event<
  'SubscriptionCancelled',
  typeof subscriptionCancelledData
>;
export type SubscriptionPlanChangeScheduled = Event<
  'SubscriptionPlanChangeScheduled',
  typeof subscriptionPlanChangeScheduledData
>;
export type SubscriptionEvent =
  | SubscriptionCreated
  | InvoiceIssued
  | InvoiceCollectionAttempted
  | InvoicePaid
  | InvoicePaymentFailed
  | InvoiceVoided
  | InvoiceMarkedUncollectible
  | SubscriptionMarkedUnpaid
  | SubscriptionPaused
  | SubscriptionResumed
  | SubscriptionCancellationScheduled
  | SubscriptionCancelled
  | SubscriptionPlanChangeScheduled;

export type BillingSettingsUpdated = Event<
  'BillingSettingsUpdated',
  typeof billingSettingsUpdatedData
>;
export type BillingSettingsEvent = BillingSettingsUpdated;

export const planEventSchemas = {
  PlanCreated: planCreatedData,
  PlanUpdated: planUpdatedData,
  PlanArchived: planArchivedData,
} as const satisfies Record<PlanEvent['type'], z.ZodType>;

export const subscriptionEventSchemas = {
  SubscriptionCreated: subscriptionCreatedData,
  InvoiceIssued: invoiceIssuedData,
  InvoiceCollectionAttempted: invoiceCollectionAttemptedData,
  InvoicePaid: invoicePaidData,
  InvoicePaymentFailed: invoicePaymentFailedData,
  InvoiceVoided: invoiceVoidedData,
  InvoiceMarkedUncollectible: invoiceMarkedUncollectibleData,
  SubscriptionMarkedUnpaid: subscriptionMarkedUnpaidData,
  SubscriptionPaused: subscriptionPausedData,
  SubscriptionResumed: subscriptionResumedData,
  SubscriptionCancellationScheduled: subscriptionCancellationScheduledData,
  SubscriptionCancelled: subscriptionCancelledData,
  SubscriptionPlanChangeScheduled: subscriptionPlanChangeScheduledData,
} as const satisfies Record<SubscriptionEvent['type'], z.ZodType>;

export const billingSettingsEventSchemas = {
  BillingSettingsUpdated: billingSettingsUpdatedData,
} as const satisfies Record<BillingSettingsEvent['type'], z.ZodType>;

export const planEventTypes = Object.keys(planEventSchemas) as PlanEvent['type'][];
export const subscriptionEventTypes = Object.keys(
  subscriptionEventSchemas,
) as SubscriptionEvent['type'][];

export function asPlanEvent(event: { type: string; data: unknown }): PlanEvent | undefined {
  return Object.hasOwn(planEventSchemas, event.type) ? (event as PlanEvent) : undefined;
}

export function asSubscriptionEvent(event: {
  type: string;
  data: unknown;
}): SubscriptionEvent | undefined {
  return Object.hasOwn(subscriptionEventSchemas, event.type)
    ? (event as SubscriptionEvent)
    : undefined;
}
