import type {
  CollectionMethod,
  PaymentCurrency,
  PlanInterval,
  SubscriptionEvent,
} from '@issuer/events';
import { addIntervals } from './periods';

export type SubscriptionStatus =
  | 'trialing'
  | 'active'
  | 'past_due'
  | 'paused'
  | 'unpaid'
  | 'cancelled';
export type InvoiceStatus = 'open' | 'paid' | 'void' | 'uncollectible';

export interface Terms {
  planId: string;
  planName: string;
  amountCents: number;
  currency: PaymentCurrency;
  interval: PlanInterval;
  intervalCount: number;
}

export interface InvoiceState {
  invoiceId: string;
  number: string;
  periodIndex: number;
  periodStart: string;
  periodEnd: string;
  planId: string;
  planName: string;
  amountCents: number;
  currency: PaymentCurrency;
  status: InvoiceStatus;
  issuedAt: string;
  /** Attempts made so far; the last one's e-transfer (or, collecting by card, its payment). */
  attempts: number;
  etransferId: string | null;
  paymentId: string | null;
  /** Failed attempts so far, and when the first failed (retries count from it). */
  failures: number;
  firstFailedAt: string | null;
  nextAttemptAt: string | null;
  paidAt: string | null;
  closedAt: string | null;
}

export interface SubscriptionDetails {
  status: SubscriptionStatus;
  subscriptionId: string;
  companyId: string;
  customerId: string;
  collectionMethod: CollectionMethod;
  /** The saved card a `card` subscription charges; null for e-transfer. */
  paymentMethodId: string | null;
  startAt: string;
  trialEndsAt: string | null;
  createdAt: string;
  createdBy: string;
  /** The terms invoices use now; period k starts `(k − termsFromIndex)` intervals after termsAnchor. */
  terms: Terms;
  termsAnchor: string;
  termsFromIndex: number;
  pendingChange: (Terms & { fromPeriodIndex: number }) | null;
  nextPeriodIndex: number;
  /** When period `nextPeriodIndex` starts: the billing timer's due date. */
  nextBillAt: string;
  cancelAt: string | null;
  cancelledAt: string | null;
  cancellationReason: string | null;
  pausedAt: string | null;
  invoices: InvoiceState[];
}

export type Subscription = { status: 'none' } | SubscriptionDetails;

export const isSubscription = (state: Subscription): state is SubscriptionDetails =>
  state.status !== 'none';

/** When period `index` starts under the terms in force from `termsFromIndex`. */
export function periodStart(state: SubscriptionDetails, index: number, terms = state.terms): Date {
  return addIntervals(
    new Date(state.termsAnchor),
    terms.interval,
    (index - state.termsFromIndex) * terms.intervalCount,
  );
}

/** The id the invoice's current attempt is collected under: its e-transfer, or its card payment. */
export const currentCollectionId = (invoice: InvoiceState) =>
  invoice.paymentId ?? invoice.etransferId;

export const openInvoice = (state: SubscriptionDetails) =>
  state.invoices.find((invoice) => invoice.status === 'open');

/** The status a subscription has when nothing pauses or ends it. */
function runningStatus(state: SubscriptionDetails, now: string): SubscriptionStatus {
  if (state.invoices.some((invoice) => invoice.status === 'open' && invoice.failures > 0)) {
    return 'past_due';
  }
  if (state.invoices.length === 0 && state.trialEndsAt !== null && now < state.trialEndsAt) {
    return 'trialing';
  }
  return 'active';
}

function updateInvoice(
  state: SubscriptionDetails,
  invoiceId: string,
  change: (invoice: InvoiceState) => InvoiceState,
): SubscriptionDetails {
  return {
    ...state,
    invoices: state.invoices.map((invoice) =>
      invoice.invoiceId === invoiceId ? change(invoice) : invoice,
    ),
  };
}

export function evolveSubscription(state: Subscription, event: SubscriptionEvent): Subscription {
  if (event.type === 'SubscriptionCreated') {
    const { data } = event;
    return {
      status: data.trialEndsAt ? 'trialing' : 'active',
      subscriptionId: data.subscriptionId,
      companyId: data.companyId,
      customerId: data.customerId,
      collectionMethod: data.collectionMethod,
      paymentMethodId: data.paymentMethodId ?? null,
      startAt: data.startAt,
      trialEndsAt: data.trialEndsAt,
      createdAt: data.createdAt,
      createdBy: data.createdBy,
      terms: termsOf(data),
      termsAnchor: data.billingAnchor,
      termsFromIndex: 0,
      pendingChange: null,
      nextPeriodIndex: 0,
      nextBillAt: data.billingAnchor,
      cancelAt: null,
      cancelledAt: null,
      cancellationReason: null,
      pausedAt: null,
      invoices: [],
    };
  }
  if (!isSubscription(state)) return state;
  switch (event.type) {
    case 'InvoiceIssued': {
      const { data } = event;
      const change = state.pendingChange;
      const switching = change !== null && change.fromPeriodIndex <= data.periodIndex;
      const next: SubscriptionDetails = {
        ...state,
        terms: switching ? termsOf(change) : state.terms,
        termsAnchor: switching ? data.periodStart : state.termsAnchor,
        termsFromIndex: switching ? data.periodIndex : state.termsFromIndex,
        pendingChange: switching ? null : change,
        nextPeriodIndex: data.periodIndex + 1,
        nextBillAt: data.periodEnd,
        invoices: [
          ...state.invoices,
          {
            invoiceId: data.invoiceId,
            number: data.number,
            periodIndex: data.periodIndex,
            periodStart: data.periodStart,
            periodEnd: data.periodEnd,
            planId: data.planId,
            planName: data.planName,
            amountCents: data.amountCents,
            currency: data.currency,
            status: 'open',
            issuedAt: data.issuedAt,
            attempts: 0,
            etransferId: null,
            paymentId: null,
            failures: 0,
            firstFailedAt: null,
            nextAttemptAt: null,
            paidAt: null,
            closedAt: null,
          },
        ],
      };
      return state.status === 'trialing' ? { ...next, status: 'active' } : next;
    }
    case 'InvoiceCollectionAttempted':
      return updateInvoice(state, event.data.invoiceId, (invoice) => ({
        ...invoice,
        attempts: event.data.attempt,
        etransferId: event.data.etransferId || null,
        paymentId: event.data.paymentId ?? null,
        nextAttemptAt: null,
      }));
    case 'InvoicePaid': {
      const paid = updateInvoice(state, event.data.invoiceId, (invoice) => ({
        ...invoice,
        status: 'paid',
        paidAt: event.data.paidAt,
        closedAt: event.data.paidAt,
        nextAttemptAt: null,
      }));
      const resumes = state.status === 'past_due' || state.status === 'unpaid';
      return resumes ? { ...paid, status: runningStatus(paid, event.data.paidAt) } : paid;
    }
    case 'InvoicePaymentFailed': {
      const failed = updateInvoice(state, event.data.invoiceId, (invoice) => ({
        ...invoice,
        failures: invoice.failures + 1,
        firstFailedAt: invoice.firstFailedAt ?? event.data.failedAt,
        nextAttemptAt: event.data.nextAttemptAt,
      }));
      return failed.status === 'active' ? { ...failed, status: 'past_due' } : failed;
    }
    case 'InvoiceVoided':
      return updateInvoice(state, event.data.invoiceId, (invoice) => ({
        ...invoice,
        status: 'void',
        closedAt: event.data.voidedAt,
        nextAttemptAt: null,
      }));
    case 'InvoiceMarkedUncollectible':
      return updateInvoice(state, event.data.invoiceId, (invoice) => ({
        ...invoice,
        status: 'uncollectible',
        closedAt: event.data.markedAt,
        nextAttemptAt: null,
      }));
    case 'SubscriptionMarkedUnpaid':
      return { ...state, status: 'unpaid' };
    case 'SubscriptionPaused':
      return { ...state, status: 'paused', pausedAt: event.data.pausedAt };
    case 'SubscriptionResumed': {
      const { data } = event;
      const resumed: SubscriptionDetails = {
        ...state,
        pausedAt: null,
        nextPeriodIndex: data.nextPeriodIndex,
        nextBillAt: data.nextBillAt,
        pendingChange: state.pendingChange && {
          ...state.pendingChange,
          fromPeriodIndex: Math.max(state.pendingChange.fromPeriodIndex, data.nextPeriodIndex),
        },
      };
      return { ...resumed, status: runningStatus(resumed, data.resumedAt) };
    }
    case 'SubscriptionCancellationScheduled':
      return { ...state, cancelAt: event.data.cancelAt };
    case 'SubscriptionCancelled':
      return {
        ...state,
        status: 'cancelled',
        cancelledAt: event.data.cancelledAt,
        cancellationReason: event.data.reason,
      };
    case 'SubscriptionPlanChangeScheduled':
      return {
        ...state,
        pendingChange: { ...termsOf(event.data), fromPeriodIndex: event.data.fromPeriodIndex },
      };
    default:
      return state;
  }
}

function termsOf(data: Terms): Terms {
  const { planId, planName, amountCents, currency, interval, intervalCount } = data;
  return { planId, planName, amountCents, currency, interval, intervalCount };
}
