import {
  type CollectionFailureReason,
  type CollectionMethod,
  conflict,
  type FinalFailureAction,
  invalid,
  notFound,
  type SubscriptionEvent,
} from '@issuer/events';
import {
  addDays,
  collectionEtransferId,
  collectionPaymentId,
  invoiceIdOf,
  invoiceNumberOf,
} from './periods';
import type { PlanDetails } from './plan';
import {
  currentCollectionId,
  evolveSubscription,
  isSubscription,
  openInvoice,
  periodStart,
  type Subscription,
  type SubscriptionDetails,
  type Terms,
} from './subscription';

/** Stripe's default retry schedule: days after the first failed attempt. */
export const defaultRetryDays: readonly number[] = [1, 3, 5];
export interface BillingSettings {
  retryDays: readonly number[];
  afterFinalFailure: FinalFailureAction;
}
export const defaultBillingSettings: BillingSettings = {
  retryDays: defaultRetryDays,
  afterFinalFailure: 'unpaid',
};
/** How far ahead a subscription may start. */
export const maxStartDaysAhead = 365;
/** A start this little in the past counts as now (a client's clock, a slow request). */
const startTolerance = 5 * 60_000;

type Actor = { companyId: string; actorId: string; now: Date };

export type SubscriptionCommand =
  | {
      type: 'CreateSubscription';
      data: Actor & {
        subscriptionId: string;
        customerId: string;
        plan: PlanDetails;
        collectionMethod: CollectionMethod;
        /** The customer's saved card, checked by the caller; required with `card`. */
        paymentMethodId: string | null;
        startAt: Date | null;
      };
    }
  /** The billing timer: whatever is due at `now` (a retry, the next period, the cancellation). */
  | { type: 'BillDue'; data: { now: Date } }
  | {
      type: 'RecordCollectionOutcome';
      data: {
        /** The attempt's e-transfer, or its card payment. */
        collectionId: string;
        outcome: { paid: true } | { paid: false; reason: CollectionFailureReason };
        settings: BillingSettings;
        now: Date;
      };
    }
  | { type: 'PauseSubscription'; data: Actor }
  | { type: 'ResumeSubscription'; data: Actor }
  | { type: 'CancelSubscription'; data: Actor & { atPeriodEnd: boolean } }
  | { type: 'ChangePlan'; data: Actor & { plan: PlanDetails } };

export function decideSubscription(
  command: SubscriptionCommand,
  state: Subscription,
): SubscriptionEvent[] {
  if (command.type === 'CreateSubscription') return create(command.data, state);
  if (!isSubscription(state)) throw notFound('Subscription');
  switch (command.type) {
    case 'BillDue':
      return billDue(state, command.data.now);
    case 'RecordCollectionOutcome':
      return recordOutcome(state, command.data);
  }
  if (state.companyId !== command.data.companyId) throw notFound('Subscription');
  switch (command.type) {
    case 'PauseSubscription':
      return pause(state, command.data);
    case 'ResumeSubscription':
      return resume(state, command.data);
    case 'CancelSubscription':
      return cancel(state, command.data);
    case 'ChangePlan':
      return changePlan(state, command.data);
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}

const ids = (state: SubscriptionDetails) => ({
  subscriptionId: state.subscriptionId,
  companyId: state.companyId,
});

function usablePlan(plan: PlanDetails, companyId: string): Terms {
  if (plan.companyId !== companyId) throw notFound('Plan');
  if (plan.status === 'archived') {
    const text = 'This plan is archived: it takes no new subscribers';
    throw invalid(text, { planId: text });
  }
  return {
    planId: plan.planId,
    planName: plan.name,
    amountCents: plan.amountCents,
    currency: plan.currency,
    interval: plan.interval,
    intervalCount: plan.intervalCount,
  };
}

function create(
  data: Extract<SubscriptionCommand, { type: 'CreateSubscription' }>['data'],
  state: Subscription,
): SubscriptionEvent[] {
  if (state.status !== 'none') throw conflict('This subscription already exists');
  const terms = usablePlan(data.plan, data.companyId);
  if (data.collectionMethod === 'card' && data.paymentMethodId === null) {
    const text = 'Collecting by card needs a saved card of the customer';
    throw invalid(text, { paymentMethodId: text });
  }
  if (data.collectionMethod !== 'card' && data.paymentMethodId !== null) {
    const text = 'A card is charged only with the collection method card';
    throw invalid(text, { paymentMethodId: text });
  }
  const now = data.now.getTime();
  const startAt = data.startAt ?? data.now;
  const ahead = startAt.getTime() - now;
  if (ahead < -startTolerance || ahead > maxStartDaysAhead * 86_400_000) {
    const text = `Must be from now to ${maxStartDaysAhead} days ahead`;
    throw invalid(text, { startAt: text });
  }
  const start = new Date(Math.max(startAt.getTime(), now));
  const trialEndsAt = data.plan.trialDays > 0 ? addDays(start, data.plan.trialDays) : null;
  return [
    {
      type: 'SubscriptionCreated',
      data: {
        subscriptionId: data.subscriptionId,
        companyId: data.companyId,
        customerId: data.customerId,
        ...terms,
        collectionMethod: data.collectionMethod,
        ...(data.paymentMethodId === null ? {} : { paymentMethodId: data.paymentMethodId }),
        startAt: start.toISOString(),
        trialEndsAt: trialEndsAt?.toISOString() ?? null,
        billingAnchor: (trialEndsAt ?? start).toISOString(),
        createdBy: data.actorId,
        createdAt: data.now.toISOString(),
      },
    },
  ];
}

/** The statuses in which billing runs (a paused, unpaid or cancelled one bills nothing). */
const billing = new Set(['trialing', 'active', 'past_due']);

/**
 * When the next invoice will be issued, or null when none will: billing has stopped (paused,
 * unpaid, cancelled) or the subscription ends with its period before then. `nextBillAt` itself
 * stays as stored, since billing resumes from it.
 */
export function nextInvoiceAt(
  state: Pick<SubscriptionDetails, 'status' | 'nextBillAt' | 'cancelAt'>,
): string | null {
  if (!billing.has(state.status)) return null;
  if (state.cancelAt !== null && Date.parse(state.cancelAt) <= Date.parse(state.nextBillAt))
    return null;
  return state.nextBillAt;
}

function billDue(state: SubscriptionDetails, now: Date): SubscriptionEvent[] {
  if (!billing.has(state.status)) return [];
  const events: SubscriptionEvent[] = [];
  const open = openInvoice(state);
  if (open?.nextAttemptAt && Date.parse(open.nextAttemptAt) <= now.getTime()) {
    events.push(attempt(state, open.invoiceId, open.amountCents, open.attempts + 1, now));
  }
  if (Date.parse(state.nextBillAt) > now.getTime()) return events;
  if (state.cancelAt !== null && Date.parse(state.cancelAt) <= now.getTime()) {
    return [...events, ...cancelNow(state, 'period_end', null, now)];
  }
  return [...events, ...issue(state, now)];
}

/** The invoice of period `nextPeriodIndex` (with a pending plan change from it, the new terms). */
function issue(state: SubscriptionDetails, now: Date): SubscriptionEvent[] {
  const index = state.nextPeriodIndex;
  const change = state.pendingChange;
  const switching = change !== null && change.fromPeriodIndex <= index;
  const start = periodStart(state, index);
  const terms = switching ? change : state.terms;
  const end = switching
    ? periodStart(
        { ...state, termsAnchor: start.toISOString(), termsFromIndex: index },
        index + 1,
        change,
      )
    : periodStart(state, index + 1);
  const invoiceId = invoiceIdOf(state.subscriptionId, index);
  return [
    {
      type: 'InvoiceIssued',
      data: {
        ...ids(state),
        invoiceId,
        customerId: state.customerId,
        number: invoiceNumberOf(state.subscriptionId, index),
        periodIndex: index,
        periodStart: start.toISOString(),
        periodEnd: end.toISOString(),
        planId: terms.planId,
        planName: terms.planName,
        amountCents: terms.amountCents,
        currency: terms.currency,
        interval: terms.interval,
        intervalCount: terms.intervalCount,
        issuedAt: now.toISOString(),
      },
    },
    attempt(state, invoiceId, terms.amountCents, 1, now),
  ];
}

function attempt(
  state: SubscriptionDetails,
  invoiceId: string,
  amountCents: number,
  number: number,
  now: Date,
): SubscriptionEvent {
  const collection =
    state.collectionMethod === 'card'
      ? { etransferId: '', paymentId: collectionPaymentId(invoiceId, number) }
      : { etransferId: collectionEtransferId(invoiceId, number) };
  return {
    type: 'InvoiceCollectionAttempted',
    data: {
      ...ids(state),
      invoiceId,
      attempt: number,
      ...collection,
      amountCents,
      attemptedAt: now.toISOString(),
    },
  };
}

/** The id each attempt of an invoice is collected under (derived: a replay finds the same). */
function collectionIdsOf(state: SubscriptionDetails, invoiceId: string, attempts: number) {
  const idOf = state.collectionMethod === 'card' ? collectionPaymentId : collectionEtransferId;
  return Array.from({ length: attempts }, (_, i) => idOf(invoiceId, i + 1));
}

/**
 * What the e-transfer (or card payment) of an attempt came to. Only the invoice's current attempt
 * counts, and only once; money is taken whenever it comes while the invoice is open (it moved).
 */
function recordOutcome(
  state: SubscriptionDetails,
  data: Extract<SubscriptionCommand, { type: 'RecordCollectionOutcome' }>['data'],
): SubscriptionEvent[] {
  const invoice = state.invoices.find((candidate) =>
    collectionIdsOf(state, candidate.invoiceId, candidate.attempts).includes(data.collectionId),
  );
  if (invoice?.status !== 'open') return [];
  const at = data.now.toISOString();
  const collection =
    state.collectionMethod === 'card'
      ? { etransferId: '', paymentId: data.collectionId }
      : { etransferId: data.collectionId };
  const base = { ...ids(state), invoiceId: invoice.invoiceId, ...collection };
  if (data.outcome.paid) {
    return [
      { type: 'InvoicePaid', data: { ...base, amountCents: invoice.amountCents, paidAt: at } },
    ];
  }
  // A failure of an older attempt, a repeat, or one while a retry is already scheduled: nothing.
  if (data.collectionId !== currentCollectionId(invoice) || invoice.failures >= invoice.attempts) {
    return [];
  }
  const retryDays = data.settings.retryDays[invoice.failures];
  const firstFailedAt = new Date(invoice.firstFailedAt ?? at);
  const nextAttemptAt = retryDays === undefined ? null : addDays(firstFailedAt, retryDays);
  const failed: SubscriptionEvent = {
    type: 'InvoicePaymentFailed',
    data: {
      ...base,
      attempt: invoice.attempts,
      reason: data.outcome.reason,
      failedAt: at,
      nextAttemptAt: nextAttemptAt?.toISOString() ?? null,
    },
  };
  if (nextAttemptAt !== null || state.status === 'cancelled') return [failed];
  if (data.settings.afterFinalFailure === 'unpaid') {
    if (state.status === 'unpaid') return [failed];
    return [failed, { type: 'SubscriptionMarkedUnpaid', data: { ...ids(state), markedAt: at } }];
  }
  const uncollectible: SubscriptionEvent = {
    type: 'InvoiceMarkedUncollectible',
    data: { ...ids(state), invoiceId: invoice.invoiceId, markedAt: at },
  };
  const others = { ...state, invoices: state.invoices.filter((i) => i !== invoice) };
  return [failed, uncollectible, ...cancelNow(others, 'payment_failed', null, data.now)];
}

function cancelNow(
  state: SubscriptionDetails,
  reason: 'requested' | 'period_end' | 'payment_failed',
  actorId: string | null,
  now: Date,
): SubscriptionEvent[] {
  const at = now.toISOString();
  const voided: SubscriptionEvent[] = state.invoices
    .filter((invoice) => invoice.status === 'open')
    .map((invoice) => ({
      type: 'InvoiceVoided',
      data: { ...ids(state), invoiceId: invoice.invoiceId, voidedAt: at },
    }));
  return [
    ...voided,
    {
      type: 'SubscriptionCancelled',
      data: { ...ids(state), reason, cancelledBy: actorId, cancelledAt: at },
    },
  ];
}

function pause(state: SubscriptionDetails, data: Actor): SubscriptionEvent[] {
  if (state.status === 'paused') return [];
  if (!billing.has(state.status)) {
    throw conflict(`A subscription that is ${state.status} cannot be paused`);
  }
  return [
    {
      type: 'SubscriptionPaused',
      data: { ...ids(state), pausedBy: data.actorId, pausedAt: data.now.toISOString() },
    },
  ];
}

/** Billing goes on from the first period that starts at or after now; the paused ones are skipped. */
function resume(state: SubscriptionDetails, data: Actor): SubscriptionEvent[] {
  if (state.status !== 'paused') {
    if (billing.has(state.status)) return [];
    throw conflict(`A subscription that is ${state.status} cannot be resumed`);
  }
  let index = state.nextPeriodIndex;
  while (periodStart(state, index).getTime() < data.now.getTime()) index += 1;
  return [
    {
      type: 'SubscriptionResumed',
      data: {
        ...ids(state),
        resumedBy: data.actorId,
        resumedAt: data.now.toISOString(),
        nextPeriodIndex: index,
        nextBillAt: periodStart(state, index).toISOString(),
      },
    },
  ];
}

function cancel(
  state: SubscriptionDetails,
  data: Actor & { atPeriodEnd: boolean },
): SubscriptionEvent[] {
  if (state.status === 'cancelled') return [];
  if (!data.atPeriodEnd || state.status === 'unpaid') {
    return cancelNow(state, 'requested', data.actorId, data.now);
  }
  if (state.cancelAt !== null) return [];
  return [
    {
      type: 'SubscriptionCancellationScheduled',
      data: {
        ...ids(state),
        cancelAt: state.nextBillAt,
        requestedBy: data.actorId,
        requestedAt: data.now.toISOString(),
      },
    },
  ];
}

function changePlan(
  state: SubscriptionDetails,
  data: Actor & { plan: PlanDetails },
): SubscriptionEvent[] {
  if (state.status === 'cancelled') throw conflict('A cancelled subscription cannot change plan');
  const terms = usablePlan(data.plan, state.companyId);
  return [
    {
      type: 'SubscriptionPlanChangeScheduled',
      data: {
        ...ids(state),
        ...terms,
        fromPeriodIndex: state.nextPeriodIndex,
        requestedBy: data.actorId,
        requestedAt: data.now.toISOString(),
      },
    },
  ];
}

export const subscriptionDecider = {
  initialState: (): Subscription => ({ status: 'none' }),
  evolve: evolveSubscription,
  decide: decideSubscription,
};
