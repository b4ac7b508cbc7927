import { rebuildProjections } from '@issuer/projections';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { billingProjection } from './billingProjection';
import { type BillingHarness, type Payee, startBillingHarness } from './testing/billingHarness';

let h: BillingHarness;
let company: Payee;

beforeAll(async () => {
  h = await startBillingHarness();
  company = await h.companyWithCustomer();
});
afterAll(() => h?.close());

async function snapshot() {
  const tables = {
    billing_plans: 'plan_id',
    billing_subscriptions: 'subscription_id',
    billing_invoices: 'invoice_id',
    billing_due: 'subscription_id',
  };
  const rows: Record<string, unknown[]> = {};
  for (const [table, id] of Object.entries(tables)) {
    rows[table] = (await h.pool.query(`SELECT * FROM ${table} ORDER BY ${id}`)).rows;
  }
  return rows;
}

it('replaying the events changes nothing, and a rebuild from the log gives the same tables', async () => {
  const plan = await h.plan(company);
  const ids = [];
  for (let i = 0; i < 4; i++) {
    ids.push((await h.subscribe(company, { customerId: company.customerId, planId: plan.id })).id);
  }
  await h.bill();
  const [paid, declined, cancelled, paused] = await Promise.all(
    ids.map((id) => h.get(company, `/api/subscriptions/${id}`)),
  );
  const etransferOf = (sub: typeof paid) =>
    ((sub?.invoices ?? []) as { etransferId: string }[])[0]?.etransferId;
  const post = (path: string, body?: object) =>
    h.call('POST', path, { token: company.token, body });
  expect((await post(`/api/etransfers/${etransferOf(paid)}/simulator/deposit`)).status).toBe(202);
  expect((await post(`/api/etransfers/${etransferOf(declined)}/simulator/decline`)).status).toBe(
    202,
  );
  expect((await post(`/api/subscriptions/${cancelled?.id}/cancel`, {})).status).toBe(200);
  expect((await post(`/api/subscriptions/${paused?.id}/pause`)).status).toBe(200);
  await post(`/api/plans/${plan.id}/archive`);
  await h.bill();
  const before = await snapshot();
  expect(before.billing_invoices).toHaveLength(4);
  expect(
    (before.billing_subscriptions as { status: string }[]).map((row) => row.status).sort(),
  ).toEqual(['active', 'cancelled', 'past_due', 'paused']);

  const events = (await h.store.readAll({ after: -1n, maxCount: 100_000 })).filter((event) =>
    billingProjection.handles.includes(event.type),
  );
  const client = await h.pool.connect();
  try {
    await billingProjection.apply(events, client);
  } finally {
    client.release();
  }
  expect(await snapshot()).toEqual(before);

  await h.stopProjectors();
  await rebuildProjections({ store: h.store, pool: h.pool, projections: [billingProjection] });
  expect(await snapshot()).toEqual(before);
});
