import type { RaRecord } from 'react-admin';
import { apiUrl, callApi, httpClient } from '../session/http';

/** The list's views, as the address names them (`/subscriptions/past_due`). */
export const subscriptionViews = [
  'all',
  'trialing',
  'active',
  'past_due',
  'paused',
  'cancelled',
] as const;
export type SubscriptionView = (typeof subscriptionViews)[number];
export const isSubscriptionView = (view: unknown): view is SubscriptionView =>
  subscriptionViews.includes(view as SubscriptionView);

export const subscriptionStatuses = [
  'trialing',
  'active',
  'past_due',
  'paused',
  'unpaid',
  'cancelled',
] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];
export const invoiceStatuses = ['open', 'paid', 'void', 'uncollectible'] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];
export const planIntervals = ['week', 'month', 'year'] as const;
export type PlanInterval = (typeof planIntervals)[number];

/** A plan as `GET /api/plans` answers it. */
export interface Plan extends RaRecord {
  id: string;
  name: string;
  amountCents: number;
  currency: 'CAD';
  interval: PlanInterval;
  intervalCount: number;
  trialDays: number;
  status: 'active' | 'archived';
  activeSubscriptions: number;
  createdAt: string;
  archivedAt: string | null;
}

/** An invoice as `GET /api/invoices` answers it (a subscription's detail leaves out the name). */
export interface Invoice extends RaRecord {
  id: string;
  subscriptionId: string;
  customerId: string;
  customerName?: string | null;
  number: string;
  periodIndex: number;
  periodStart: string;
  periodEnd: string;
  planName: string;
  amountCents: number;
  status: InvoiceStatus;
  attempts: number;
  /** The e-transfer request of the latest collection attempt. */
  etransferId: string | null;
  /** Collected by card: the off-session payment of the latest attempt. */
  paymentId?: string | null;
  nextAttemptAt: string | null;
  issuedAt: string;
  paidAt: string | null;
  closedAt?: string | null;
}

/** A plan change waiting for the period it applies from. */
export interface PendingPlanChange {
  planId: string;
  planName: string;
  amountCents: number;
  fromPeriodIndex: number;
}

/** A subscription as `GET /api/subscriptions` answers it; the detail adds its invoices. */
export interface Subscription extends RaRecord {
  id: string;
  customerId: string;
  customerName: string | null;
  planId: string;
  planName: string;
  amountCents: number;
  interval: PlanInterval;
  intervalCount: number;
  collectionMethod: string;
  status: SubscriptionStatus;
  startAt: string;
  trialEndsAt: string | null;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  nextBillAt: string | null;
  /** When the next invoice is issued; null when none will be (the API decides). */
  nextInvoiceAt: string | null;
  cancelAt: string | null;
  cancelledAt: string | null;
  pausedAt: string | null;
  pendingPlanChange: PendingPlanChange | null;
  invoiceCount: number;
  createdAt: string;
  invoices?: Invoice[];
}

export interface PlanInput {
  name: string;
  amountCents: number;
  interval: PlanInterval;
  intervalCount: number;
  trialDays: number;
}

const path = (id: string) => `/subscriptions/${encodeURIComponent(id)}`;

/** A write with an idempotency key made once per dialog: a double click does it once. */
async function sendOnce<T>(
  url: string,
  body: unknown,
  idempotencyKey: string,
  method = 'POST',
): Promise<T> {
  const { json } = await httpClient(`${apiUrl}${url}`, {
    method,
    headers: new Headers({ Accept: 'application/json', 'Idempotency-Key': idempotencyKey }),
    body: JSON.stringify(body),
  });
  return json as T;
}

export const createPlan = (plan: PlanInput, key: string) => sendOnce<Plan>('/plans', plan, key);
export const updatePlan = (id: string, plan: PlanInput, key: string) =>
  sendOnce<Plan>(`/plans/${encodeURIComponent(id)}`, plan, key, 'PUT');
export const archivePlan = (id: string) =>
  callApi<Plan>(`/plans/${encodeURIComponent(id)}/archive`, { method: 'POST' });

export const subscribe = (
  input: {
    customerId: string;
    planId: string;
    startAt?: string;
    collectionMethod?: 'etransfer' | 'card';
    paymentMethodId?: string;
  },
  key: string,
) => sendOnce<Subscription>('/subscriptions', input, key);

export const fetchSubscription = (id: string) => callApi<Subscription>(path(id));

export type SubscriptionAction = 'pause' | 'resume' | 'cancel';
export const actOn = (id: string, action: SubscriptionAction, atPeriodEnd = false) =>
  callApi<Subscription>(`${path(id)}/${action}`, {
    method: 'POST',
    ...(action === 'cancel' ? { body: { atPeriodEnd } } : {}),
  });

export const changePlan = (id: string, planId: string, key: string) =>
  sendOnce<Subscription>(`${path(id)}/change-plan`, { planId }, key);

export const fetchInvoice = (id: string) => callApi<Invoice>(`/invoices/${encodeURIComponent(id)}`);

export const finalFailureActions = ['unpaid', 'cancel'] as const;
export type FinalFailureAction = (typeof finalFailureActions)[number];
/** The company's dunning: when a failed collection is tried again, and what follows the last. */
export interface BillingSettings {
  retryDays: number[];
  afterFinalFailure: FinalFailureAction;
}
export const fetchBillingSettings = () => callApi<BillingSettings>('/billing/settings');
export const saveBillingSettings = (settings: BillingSettings, key: string) =>
  sendOnce<BillingSettings>('/billing/settings', settings, key, 'PUT');

export const statusColors: Record<
  SubscriptionStatus | InvoiceStatus,
  'default' | 'success' | 'warning' | 'error' | 'info'
> = {
  trialing: 'info',
  active: 'success',
  past_due: 'warning',
  paused: 'default',
  unpaid: 'error',
  cancelled: 'default',
  open: 'info',
  paid: 'success',
  void: 'default',
  uncollectible: 'error',
};

/** Which actions a subscription in this state allows. */
export function allowedActions(subscription: Pick<Subscription, 'status' | 'cancelAt'>) {
  const live = subscription.status !== 'cancelled' && subscription.status !== 'unpaid';
  return {
    pause: live && subscription.status !== 'paused',
    resume: subscription.status === 'paused',
    cancel: live,
    cancelAtPeriodEnd: live && !subscription.cancelAt,
    // A subscription ending with its period has no next period to change.
    changePlan: live && !subscription.cancelAt,
  };
}
