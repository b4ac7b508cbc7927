import {
  asPlanEvent,
  asSubscriptionEvent,
  planEventTypes,
  type RecordedEvent,
  subscriptionEventTypes,
} from '@issuer/events';
import { addColumnIfMissing, type Projection } from '@issuer/projections';
import type { PoolClient } from 'pg';
import { evolvePlan, isPlan, type Plan, type PlanDetails } from './plan';
import {
  evolveSubscription,
  isSubscription,
  openInvoice,
  type Subscription,
  type SubscriptionDetails,
} from './subscription';

/**
 * The billing read model: plans, subscriptions, invoices, and `billing_due`, the billing
 * scheduler's durable timer (one row per subscription: when it next has something to do — its
 * next period, or its open invoice's retry — null when nothing). Per batch: load the rows it
 * touches (each keeps its aggregate's state as jsonb), fold the events with the write side's own
 * evolve functions, write the changed rows back. Rows ignore events at or before their position,
 * so a replay changes nothing.
 */
const migration = `
CREATE TABLE IF NOT EXISTS billing_plans (
  plan_id text PRIMARY KEY,
  company_id text NOT NULL,
  name text NOT NULL,
  amount_cents bigint NOT NULL,
  status text NOT NULL,
  created_at timestamptz NOT NULL,
  state jsonb NOT NULL,
  position bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS billing_plans_company_idx ON billing_plans (company_id, created_at);
CREATE TABLE IF NOT EXISTS billing_subscriptions (
  subscription_id text PRIMARY KEY,
  company_id text NOT NULL,
  customer_id text NOT NULL,
  plan_id text NOT NULL,
  status text NOT NULL,
  amount_cents bigint NOT NULL,
  created_at timestamptz NOT NULL,
  next_bill_at timestamptz,
  state jsonb NOT NULL,
  position bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS billing_subscriptions_company_idx
  ON billing_subscriptions (company_id, created_at, subscription_id);
CREATE INDEX IF NOT EXISTS billing_subscriptions_status_idx
  ON billing_subscriptions (company_id, status, created_at);
CREATE INDEX IF NOT EXISTS billing_subscriptions_customer_idx ON billing_subscriptions (customer_id);
CREATE INDEX IF NOT EXISTS billing_subscriptions_plan_idx ON billing_subscriptions (plan_id, status);
CREATE TABLE IF NOT EXISTS billing_invoices (
  invoice_id text PRIMARY KEY,
  subscription_id text NOT NULL,
  company_id text NOT NULL,
  customer_id text NOT NULL,
  number text NOT NULL,
  period_index int NOT NULL,
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  plan_id text NOT NULL,
  plan_name text NOT NULL,
  amount_cents bigint NOT NULL,
  currency text NOT NULL,
  status text NOT NULL,
  attempts int NOT NULL,
  etransfer_id text,
  next_attempt_at timestamptz,
  issued_at timestamptz NOT NULL,
  paid_at timestamptz,
  closed_at timestamptz,
  position bigint NOT NULL,
  UNIQUE (subscription_id, period_index)
);
CREATE INDEX IF NOT EXISTS billing_invoices_company_idx
  ON billing_invoices (company_id, issued_at, invoice_id);
CREATE INDEX IF NOT EXISTS billing_invoices_subscription_idx
  ON billing_invoices (subscription_id, period_index);
-- A card invoice's current attempt: its off-session payment.
${addColumnIfMissing('billing_invoices', 'payment_id', 'text')}
CREATE TABLE IF NOT EXISTS billing_due (
  subscription_id text PRIMARY KEY,
  due_at timestamptz,
  position bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS billing_due_idx ON billing_due (due_at) WHERE due_at IS NOT NULL;
`;

const billingStatuses = new Set(['trialing', 'active', 'past_due']);

/** When the billing timer next has something to do for this subscription; null when nothing. */
export function dueAt(state: SubscriptionDetails): string | null {
  if (!billingStatuses.has(state.status)) return null;
  const retry = openInvoice(state)?.nextAttemptAt ?? null;
  if (retry !== null && retry < state.nextBillAt) return retry;
  return state.nextBillAt;
}

interface Loaded<State> {
  state: State;
  position: bigint;
}

export const billingProjection: Projection = {
  name: 'billing',
  handles: [...planEventTypes, ...subscriptionEventTypes],
  tables: ['billing_plans', 'billing_subscriptions', 'billing_invoices', 'billing_due'],
  async migrate(client) {
    await client.query(migration);
  },
  async apply(events, client) {
    const plans = await load<Plan>(
      client,
      'billing_plans',
      'plan_id',
      idsOf(events, 'planId', asPlanEvent),
    );
    const subscriptions = await load<Subscription>(
      client,
      'billing_subscriptions',
      'subscription_id',
      idsOf(events, 'subscriptionId', asSubscriptionEvent),
    );
    const changedPlans = new Set<string>();
    const changedSubscriptions = new Set<string>();
    /** Per subscription, its invoices changed in this batch and the position of each one's last event. */
    const changedInvoices = new Map<string, Map<string, bigint>>();
    for (const recorded of events) {
      const planEvent = asPlanEvent(recorded);
      if (planEvent) {
        const id = planEvent.data.planId;
        const row = plans.get(id);
        if (row && row.position >= recorded.position) continue;
        plans.set(id, {
          state: evolvePlan(row?.state ?? { status: 'none' }, planEvent),
          position: recorded.position,
        });
        changedPlans.add(id);
        continue;
      }
      const event = asSubscriptionEvent(recorded);
      if (!event) continue;
      const id = event.data.subscriptionId;
      const row = subscriptions.get(id);
      if (row && row.position >= recorded.position) continue;
      const state = evolveSubscription(row?.state ?? { status: 'none' }, event);
      subscriptions.set(id, { state, position: recorded.position });
      changedSubscriptions.add(id);
      const invoiceId = (event.data as { invoiceId?: string }).invoiceId;
      if (invoiceId) {
        const invoices = changedInvoices.get(id) ?? new Map<string, bigint>();
        invoices.set(invoiceId, recorded.position);
        changedInvoices.set(id, invoices);
      }
    }
    await savePlans(
      client,
      [...changedPlans].flatMap((id) => only(plans.get(id), isPlan)),
    );
    const saved = [...changedSubscriptions].flatMap((id) =>
      only(subscriptions.get(id), isSubscription),
    );
    await saveSubscriptions(client, saved);
    await saveInvoices(client, saved, changedInvoices);
  },
};

function only<State, Narrow extends State>(
  row: Loaded<State> | undefined,
  is: (state: State) => state is Narrow,
): { state: Narrow; position: bigint }[] {
  return row && is(row.state) ? [{ state: row.state, position: row.position }] : [];
}

function idsOf<Event extends { data: object }>(
  events: readonly RecordedEvent[],
  field: string,
  as: (event: RecordedEvent) => Event | undefined,
): string[] {
  const ids = new Set<string>();
  for (const event of events) {
    const id = as(event) && (event.data as Record<string, unknown>)[field];
    if (typeof id === 'string') ids.add(id);
  }
  return [...ids];
}

async function load<State>(
  client: PoolClient,
  table: string,
  idColumn: string,
  ids: string[],
): Promise<Map<string, Loaded<State>>> {
  const loaded = new Map<string, Loaded<State>>();
  if (ids.length === 0) return loaded;
  const { rows } = await client.query<{ id: string; state: State; position: string }>(
    `SELECT ${idColumn} AS id, state, position::text FROM ${table} WHERE ${idColumn} = ANY($1)`,
    [ids],
  );
  for (const row of rows) loaded.set(row.id, { state: row.state, position: BigInt(row.position) });
  return loaded;
}

async function savePlans(client: PoolClient, rows: { state: PlanDetails; position: bigint }[]) {
  if (rows.length === 0) return;
  await client.query(
    `INSERT INTO billing_plans AS t (plan_id, company_id, name, amount_cents, status, created_at, state, position)
     SELECT r."planId", r."companyId", r.name, r."amountCents", r.status, r."createdAt", r.state, r.position
       FROM jsonb_to_recordset($1::jsonb) AS r("planId" text, "companyId" text, name text,
            "amountCents" bigint, status text, "createdAt" timestamptz, state jsonb, position bigint)
     ON CONFLICT (plan_id) DO UPDATE SET name = EXCLUDED.name, amount_cents = EXCLUDED.amount_cents,
       status = EXCLUDED.status, state = EXCLUDED.state, position = EXCLUDED.position
     WHERE t.position < EXCLUDED.position`,
    [
      JSON.stringify(
        rows.map(({ state, position }) => ({ ...state, state, position: position.toString() })),
      ),
    ],
  );
}

async function saveSubscriptions(
  client: PoolClient,
  rows: { state: SubscriptionDetails; position: bigint }[],
) {
  if (rows.length === 0) return;
  const records = rows.map(({ state, position }) => ({
    subscriptionId: state.subscriptionId,
    companyId: state.companyId,
    customerId: state.customerId,
    planId: state.terms.planId,
    status: state.status,
    amountCents: state.terms.amountCents,
    createdAt: state.createdAt,
    nextBillAt: state.status === 'cancelled' || state.status === 'unpaid' ? null : state.nextBillAt,
    dueAt: dueAt(state),
    state,
    position: position.toString(),
  }));
  const json = JSON.stringify(records);
  await client.query(
    `INSERT INTO billing_subscriptions AS t (subscription_id, company_id, customer_id, plan_id, status,
       amount_cents, created_at, next_bill_at, state, position)
     SELECT r."subscriptionId", r."companyId", r."customerId", r."planId", r.status, r."amountCents",
            r."createdAt", r."nextBillAt", r.state, r.position
       FROM jsonb_to_recordset($1::jsonb) AS r("subscriptionId" text, "companyId" text,
            "customerId" text, "planId" text, status text, "amountCents" bigint,
            "createdAt" timestamptz, "nextBillAt" timestamptz, state jsonb, position bigint)
     ON CONFLICT (subscription_id) DO UPDATE SET plan_id = EXCLUDED.plan_id, status = EXCLUDED.status,
       amount_cents = EXCLUDED.amount_cents, next_bill_at = EXCLUDED.next_bill_at,
       state = EXCLUDED.state, position = EXCLUDED.position
     WHERE t.position < EXCLUDED.position`,
    [json],
  );
  await client.query(
    `INSERT INTO billing_due AS t (subscription_id, due_at, position)
     SELECT r."subscriptionId", r."dueAt", r.position
       FROM jsonb_to_recordset($1::jsonb) AS r("subscriptionId" text, "dueAt" timestamptz, position bigint)
     ON CONFLICT (subscription_id) DO UPDATE SET due_at = EXCLUDED.due_at, position = EXCLUDED.position
     WHERE t.position < EXCLUDED.position`,
    [json],
  );
}

async function saveInvoices(
  client: PoolClient,
  rows: { state: SubscriptionDetails; position: bigint }[],
  changed: Map<string, Map<string, bigint>>,
) {
  const records = rows.flatMap(({ state }) => {
    const positions = changed.get(state.subscriptionId);
    if (!positions) return [];
    return state.invoices.flatMap((invoice) => {
      const position = positions.get(invoice.invoiceId);
      if (position === undefined) return [];
      const { subscriptionId, companyId, customerId } = state;
      return [{ ...invoice, subscriptionId, companyId, customerId, position: position.toString() }];
    });
  });
  if (records.length === 0) return;
  await client.query(
    `INSERT INTO billing_invoices AS t (invoice_id, subscription_id, company_id, customer_id, number,
       period_index, period_start, period_end, plan_id, plan_name, amount_cents, currency, status,
       attempts, etransfer_id, payment_id, next_attempt_at, issued_at, paid_at, closed_at, position)
     SELECT r."invoiceId", r."subscriptionId", r."companyId", r."customerId", r.number,
            r."periodIndex", r."periodStart", r."periodEnd", r."planId", r."planName",
            r."amountCents", r.currency, r.status, r.attempts, r."etransferId", r."paymentId",
            r."nextAttemptAt",
            r."issuedAt", r."paidAt", r."closedAt", r.position
       FROM jsonb_to_recordset($1::jsonb) AS r("invoiceId" text, "subscriptionId" text,
            "companyId" text, "customerId" text, number text, "periodIndex" int,
            "periodStart" timestamptz, "periodEnd" timestamptz, "planId" text, "planName" text,
            "amountCents" bigint, currency text, status text, attempts int, "etransferId" text,
            "paymentId" text,
            "nextAttemptAt" timestamptz, "issuedAt" timestamptz, "paidAt" timestamptz,
            "closedAt" timestamptz, position bigint)
     ON CONFLICT (invoice_id) DO UPDATE SET status = EXCLUDED.status, attempts = EXCLUDED.attempts,
       etransfer_id = EXCLUDED.etransfer_id, payment_id = EXCLUDED.payment_id, next_attempt_at = EXCLUDED.next_attempt_at,
       paid_at = EXCLUDED.paid_at, closed_at = EXCLUDED.closed_at, position = EXCLUDED.position
     WHERE t.position < EXCLUDED.position`,
    [JSON.stringify(records)],
  );
}
