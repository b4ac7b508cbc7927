import { collectionMethod, paymentCurrency, planInterval } from '@issuer/events';
import type { Pool, QueryResultRow } from 'pg';
import { z } from 'zod';
import { nextInvoiceAt } from './businessLogic';
import type { PlanDetails } from './plan';
import type { InvoiceState, SubscriptionDetails } from './subscription';

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
export const subscriptionStatuses = [
  'trialing',
  'active',
  'past_due',
  'paused',
  'unpaid',
  'cancelled',
] as const;
export const invoiceStatuses = ['open', 'paid', 'void', 'uncollectible'] as const;

export const planSortFields = {
  createdAt: 'created_at',
  name: 'name',
  amountCents: 'amount_cents',
} as const;
export const subscriptionSortFields = {
  createdAt: 'created_at',
  amountCents: 'amount_cents',
  nextBillAt: 'next_bill_at',
} as const;
export const invoiceSortFields = {
  issuedAt: 'issued_at',
  amountCents: 'amount_cents',
  periodStart: 'period_start',
} as const;

export interface Page<Field extends string> {
  sort: { field: Field; order: 'ASC' | 'DESC' };
  range: { start: number; end: number };
}

/** `company_id = $1 AND …` with numbered parameters. */
function where(companyId: string) {
  const params: unknown[] = [companyId];
  const conditions = ['t.company_id = $1'];
  return {
    add(condition: (placeholder: string) => string, value: unknown) {
      conditions.push(condition(`$${params.push(value)}`));
    },
    sql: () => conditions.join(' AND '),
    params,
  };
}

async function page<Row extends QueryResultRow>(
  pool: Pool,
  from: string,
  columns: string,
  filter: ReturnType<typeof where>,
  order: string,
  { start, end }: { start: number; end: number },
): Promise<{ rows: Row[]; total: number }> {
  const { params } = filter;
  const limit = `$${params.length + 1}`;
  const offset = `$${params.length + 2}`;
  const [rows, count] = await Promise.all([
    pool.query<Row>(
      `SELECT ${columns} FROM ${from} WHERE ${filter.sql()} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
      [...params, end - start + 1, start],
    ),
    pool.query<{ total: string }>(
      `SELECT count(*)::text AS total FROM ${from} WHERE ${filter.sql()}`,
      params,
    ),
  ]);
  return { rows: rows.rows, total: Number(count.rows[0]?.total ?? 0) };
}

// Plans

/** The Plan resource, as every plan route answers it. */
export const planResourceSchema = z
  .strictObject({
    id: z.string(),
    status: z.enum(['active', 'archived']),
    name: z.string(),
    amountCents: z.int(),
    currency: paymentCurrency,
    interval: planInterval,
    intervalCount: z.int(),
    trialDays: z.int(),
    createdAt: z.string(),
    archivedAt: z.string().nullable(),
    activeSubscriptions: z.int().meta({ description: 'Subscriptions not cancelled on it' }),
  })
  .meta({ id: 'Plan' });
export type PlanResource = z.infer<typeof planResourceSchema>;

export function planResource(state: PlanDetails, inUse: number): PlanResource {
  const { planId, companyId: _companyId, status, ...rest } = state;
  return { id: planId, status, ...rest, activeSubscriptions: inUse };
}

const planColumns = `t.state, (SELECT count(*)::int FROM billing_subscriptions s
  WHERE s.plan_id = t.plan_id AND s.status <> 'cancelled') AS in_use`;

export async function listPlans(
  pool: Pool,
  companyId: string,
  query: Page<keyof typeof planSortFields> & {
    filter: { status?: readonly string[]; q?: string; id?: readonly string[] };
  },
) {
  const filter = where(companyId);
  if (query.filter.status) filter.add((p) => `t.status = ANY(${p})`, query.filter.status);
  if (query.filter.id) filter.add((p) => `t.plan_id = ANY(${p})`, query.filter.id);
  if (query.filter.q)
    filter.add((p) => `lower(t.name) LIKE ${p}`, `%${escapeLike(query.filter.q.toLowerCase())}%`);
  const { field, order } = query.sort;
  const list = await page<{ state: PlanDetails; in_use: number }>(
    pool,
    'billing_plans t',
    planColumns,
    filter,
    `t.${planSortFields[field]} ${order}, t.plan_id ${order}`,
    query.range,
  );
  return { rows: list.rows.map((row) => planResource(row.state, row.in_use)), total: list.total };
}

export async function getPlan(pool: Pool, companyId: string, planId: string) {
  const { rows } = await pool.query<{ state: PlanDetails; in_use: number }>(
    `SELECT ${planColumns} FROM billing_plans t WHERE t.plan_id = $1 AND t.company_id = $2`,
    [planId, companyId],
  );
  const row = rows[0];
  return row ? planResource(row.state, row.in_use) : undefined;
}

// Subscriptions

/** An invoice as `GET /invoices` answers it; a subscription's own invoices leave out the name. */
export const invoiceResourceSchema = z
  .strictObject({
    id: z.string(),
    subscriptionId: z.string(),
    customerId: z.string(),
    customerName: z.string().nullable(),
    number: z.string(),
    periodIndex: z.int(),
    periodStart: z.string(),
    periodEnd: z.string(),
    planId: z.string(),
    planName: z.string(),
    amountCents: z.int(),
    currency: paymentCurrency,
    status: z.enum(invoiceStatuses),
    attempts: z.int(),
    etransferId: z.string().nullable().meta({ description: 'The last attempt’s e-transfer' }),
    paymentId: z.string().nullable().meta({ description: 'The last attempt’s card payment' }),
    nextAttemptAt: z.string().nullable(),
    issuedAt: z.string(),
    paidAt: z.string().nullable(),
    closedAt: z.string().nullable(),
  })
  .meta({ id: 'Invoice' });
export type InvoiceResource = z.infer<typeof invoiceResourceSchema>;
const subscriptionInvoiceSchema = invoiceResourceSchema.omit({ customerName: true });

/** The Subscription resource, as lists and actions answer it. */
export const subscriptionResourceSchema = z
  .strictObject({
    id: z.string(),
    customerId: z.string(),
    customerName: z.string().nullable(),
    planId: z.string(),
    planName: z.string(),
    amountCents: z.int(),
    currency: paymentCurrency,
    interval: planInterval,
    intervalCount: z.int(),
    collectionMethod,
    paymentMethodId: z.string().nullable().meta({ description: 'The saved card it charges' }),
    status: z.enum(subscriptionStatuses),
    startAt: z.string(),
    trialEndsAt: z.string().nullable(),
    currentPeriodStart: z.string().nullable(),
    currentPeriodEnd: z.string().nullable(),
    nextBillAt: z.string().nullable(),
    nextInvoiceAt: z.string().nullable().meta({
      description:
        'When the next invoice is issued; null when none will be (paused, unpaid, cancelled, or ending with its period first)',
    }),
    nextAttemptAt: z.string().nullable(),
    cancelAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
    cancellationReason: z.string().nullable(),
    pausedAt: z.string().nullable(),
    pendingPlanChange: z
      .strictObject({
        planId: z.string(),
        planName: z.string(),
        amountCents: z.int(),
        fromPeriodIndex: z.int(),
      })
      .nullable()
      .meta({ description: 'The plan it moves to from period `fromPeriodIndex`' }),
    invoiceCount: z.int(),
    createdAt: z.string(),
    createdBy: z.string(),
  })
  .meta({ id: 'Subscription' });
export type SubscriptionResource = z.infer<typeof subscriptionResourceSchema>;

/** One subscription (`GET /subscriptions/:id`): the resource with its invoices, newest first. */
export const subscriptionDetailSchema = subscriptionResourceSchema
  .extend({ invoices: z.array(subscriptionInvoiceSchema) })
  .meta({ id: 'SubscriptionDetail' });

export function subscriptionResource(
  state: SubscriptionDetails,
  customerName: string | null,
): SubscriptionResource {
  const open = state.invoices.find((invoice) => invoice.status === 'open');
  const current = state.invoices.at(-1);
  const billing = state.status !== 'cancelled' && state.status !== 'unpaid';
  return {
    id: state.subscriptionId,
    customerId: state.customerId,
    customerName,
    planId: state.terms.planId,
    planName: state.terms.planName,
    amountCents: state.terms.amountCents,
    currency: state.terms.currency,
    interval: state.terms.interval,
    intervalCount: state.terms.intervalCount,
    collectionMethod: state.collectionMethod,
    paymentMethodId: state.paymentMethodId ?? null,
    status: state.status,
    startAt: state.startAt,
    trialEndsAt: state.trialEndsAt,
    currentPeriodStart: current?.periodStart ?? null,
    currentPeriodEnd: current?.periodEnd ?? null,
    nextBillAt: billing ? state.nextBillAt : null,
    nextInvoiceAt: nextInvoiceAt(state),
    nextAttemptAt: open?.nextAttemptAt ?? null,
    cancelAt: state.cancelAt,
    cancelledAt: state.cancelledAt,
    cancellationReason: state.cancellationReason,
    pausedAt: state.pausedAt,
    pendingPlanChange: state.pendingChange && {
      planId: state.pendingChange.planId,
      planName: state.pendingChange.planName,
      amountCents: state.pendingChange.amountCents,
      fromPeriodIndex: state.pendingChange.fromPeriodIndex,
    },
    invoiceCount: state.invoices.length,
    createdAt: state.createdAt,
    createdBy: state.createdBy,
  };
}

const subscriptionFrom = `billing_subscriptions t
  LEFT JOIN money_customer_names n ON n.customer_id = t.customer_id`;
const subscriptionColumns = `t.state, trim(n.first_name || ' ' || n.last_name) AS customer_name`;

export interface SubscriptionFilter {
  view?: SubscriptionView;
  status?: readonly string[];
  customerId?: string;
  planId?: string;
  q?: string;
  id?: readonly string[];
}

export async function listSubscriptions(
  pool: Pool,
  companyId: string,
  query: Page<keyof typeof subscriptionSortFields> & { filter: SubscriptionFilter },
) {
  const { filter: f } = query;
  const filter = where(companyId);
  if (f.view && f.view !== 'all') filter.add((p) => `t.status = ${p}`, f.view);
  if (f.status) filter.add((p) => `t.status = ANY(${p})`, f.status);
  if (f.customerId) filter.add((p) => `t.customer_id = ${p}`, f.customerId);
  if (f.planId) filter.add((p) => `t.plan_id = ${p}`, f.planId);
  if (f.id) filter.add((p) => `t.subscription_id = ANY(${p})`, f.id);
  for (const word of f.q?.toLowerCase().split(/\s+/).filter(Boolean) ?? []) {
    filter.add(
      (p) =>
        `(lower(n.first_name || ' ' || n.last_name) LIKE ${p} OR lower(t.state->'terms'->>'planName') LIKE ${p} OR t.subscription_id LIKE ${p})`,
      `%${escapeLike(word)}%`,
    );
  }
  const { field, order } = query.sort;
  const list = await page<{ state: SubscriptionDetails; customer_name: string | null }>(
    pool,
    subscriptionFrom,
    subscriptionColumns,
    filter,
    `t.${subscriptionSortFields[field]} ${order} NULLS LAST, t.subscription_id ${order}`,
    query.range,
  );
  return {
    rows: list.rows.map((row) => subscriptionResource(row.state, row.customer_name || null)),
    total: list.total,
  };
}

export async function getSubscription(
  pool: Pool,
  companyId: string,
  subscriptionId: string,
): Promise<z.infer<typeof subscriptionDetailSchema> | undefined> {
  const { rows } = await pool.query<{ state: SubscriptionDetails; customer_name: string | null }>(
    `SELECT ${subscriptionColumns} FROM ${subscriptionFrom}
      WHERE t.subscription_id = $1 AND t.company_id = $2`,
    [subscriptionId, companyId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    ...subscriptionResource(row.state, row.customer_name || null),
    invoices: row.state.invoices.map((invoice) => invoiceResource(row.state, invoice)).reverse(),
  };
}

// Invoices

export function invoiceResource(
  subscription: Pick<SubscriptionDetails, 'subscriptionId' | 'customerId'>,
  invoice: InvoiceState,
) {
  const { invoiceId, failures: _failures, firstFailedAt: _first, ...rest } = invoice;
  return {
    id: invoiceId,
    subscriptionId: subscription.subscriptionId,
    customerId: subscription.customerId,
    ...rest,
  };
}

interface StoredInvoice {
  invoice_id: string;
  subscription_id: string;
  customer_id: string;
  customer_name: string | null;
  number: string;
  period_index: number;
  period_start: Date;
  period_end: Date;
  plan_id: string;
  plan_name: string;
  amount_cents: string;
  currency: InvoiceResource['currency'];
  status: InvoiceResource['status'];
  attempts: number;
  etransfer_id: string | null;
  payment_id: string | null;
  next_attempt_at: Date | null;
  issued_at: Date;
  paid_at: Date | null;
  closed_at: Date | null;
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

function toInvoice(row: StoredInvoice): InvoiceResource {
  return {
    id: row.invoice_id,
    subscriptionId: row.subscription_id,
    customerId: row.customer_id,
    customerName: row.customer_name || null,
    number: row.number,
    periodIndex: row.period_index,
    periodStart: row.period_start.toISOString(),
    periodEnd: row.period_end.toISOString(),
    planId: row.plan_id,
    planName: row.plan_name,
    amountCents: Number(row.amount_cents),
    currency: row.currency,
    status: row.status,
    attempts: row.attempts,
    etransferId: row.etransfer_id,
    paymentId: row.payment_id,
    nextAttemptAt: iso(row.next_attempt_at),
    issuedAt: row.issued_at.toISOString(),
    paidAt: iso(row.paid_at),
    closedAt: iso(row.closed_at),
  };
}

export async function listInvoices(
  pool: Pool,
  companyId: string,
  query: Page<keyof typeof invoiceSortFields> & {
    filter: {
      status?: readonly string[];
      subscriptionId?: string;
      customerId?: string;
      id?: readonly string[];
    };
  },
) {
  const { filter: f } = query;
  const filter = where(companyId);
  if (f.status) filter.add((p) => `t.status = ANY(${p})`, f.status);
  if (f.subscriptionId) filter.add((p) => `t.subscription_id = ${p}`, f.subscriptionId);
  if (f.customerId) filter.add((p) => `t.customer_id = ${p}`, f.customerId);
  if (f.id) filter.add((p) => `t.invoice_id = ANY(${p})`, f.id);
  const { field, order } = query.sort;
  const list = await page<StoredInvoice>(
    pool,
    'billing_invoices t LEFT JOIN money_customer_names n ON n.customer_id = t.customer_id',
    `t.*, trim(n.first_name || ' ' || n.last_name) AS customer_name`,
    filter,
    `t.${invoiceSortFields[field]} ${order}, t.invoice_id ${order}`,
    query.range,
  );
  return { rows: list.rows.map(toInvoice), total: list.total };
}

/** The company's invoice; undefined for a missing or another company's one. */
export async function getInvoice(pool: Pool, companyId: string, invoiceId: string) {
  const { rows } = await listInvoices(pool, companyId, {
    sort: { field: 'issuedAt', order: 'DESC' },
    range: { start: 0, end: 0 },
    filter: { id: [invoiceId] },
  });
  return rows[0];
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The statuses whose subscriptions count in MRR: billing now, as Stripe counts them. */
export const recurringStatuses = ['active', 'past_due'] as const;

/**
 * Monthly recurring revenue, in cents, of the company's subscriptions that bill now (active, and
 * past due as Stripe counts them: still owed, not yet given up; trialing, paused, unpaid and
 * cancelled ones bring nothing this month). Each subscription's current terms are normalised to
 * one month: a price per `intervalCount` months is divided by the count; per `intervalCount`
 * years, by 12 × the count; per `intervalCount` weeks, multiplied by 52 / 12 (a month being a
 * twelfth of a 52-week year) and divided by the count. The exact sum is rounded to the cent once,
 * at the end, half away from zero (PostgreSQL's numeric `round`).
 */
export async function monthlyRecurringRevenue(
  pool: Pool,
  companyId: string,
): Promise<{ amountCents: number; subscriptions: number }> {
  const { rows } = await pool.query<{ amount_cents: string; subscriptions: string }>(
    `SELECT round(coalesce(sum(
              (t.state->'terms'->>'amountCents')::numeric
              * CASE t.state->'terms'->>'interval'
                  WHEN 'week' THEN 52::numeric / 12
                  WHEN 'month' THEN 1
                  WHEN 'year' THEN 1::numeric / 12
                END
              / greatest((t.state->'terms'->>'intervalCount')::numeric, 1)), 0))::text AS amount_cents,
            count(*)::text AS subscriptions
       FROM billing_subscriptions t WHERE t.company_id = $1 AND t.status = ANY($2)`,
    [companyId, recurringStatuses],
  );
  return {
    amountCents: Number(rows[0]?.amount_cents ?? 0),
    subscriptions: Number(rows[0]?.subscriptions ?? 0),
  };
}
