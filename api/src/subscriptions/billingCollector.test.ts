import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BillingHarness, type Payee, startBillingHarness } from './testing/billingHarness';

let h: BillingHarness;
let company: Payee;

beforeAll(async () => {
  h = await startBillingHarness();
  company = await h.companyWithCustomer();
});
afterAll(() => h?.close());

const eventCount = async () =>
  Number((await h.pool.query<{ n: string }>('SELECT count(*) AS n FROM es_events')).rows[0]?.n);

it('replayed from its first event (a crash before the checkpoint moved), the collector requests and pays nothing twice', async () => {
  const plan = await h.plan(company, { amountCents: 4200 });
  const sub = await h.subscribe(company, { customerId: company.customerId, planId: plan.id });
  await h.bill();
  const [invoice] = (await h.get(company, `/api/subscriptions/${sub.id}`)).invoices as {
    etransferId: string;
  }[];
  const deposit = await h.call(
    'POST',
    `/api/etransfers/${invoice?.etransferId}/simulator/deposit`,
    {
      token: company.token,
    },
  );
  expect(deposit.status).toBe(202);
  await h.bill();
  expect(await h.get(company, `/api/subscriptions/${sub.id}`)).toMatchObject({
    status: 'active',
    invoices: [{ status: 'paid', attempts: 1 }],
  });
  const balance = await h.balance(company.token);
  const before = await eventCount();

  await h.pool.query(
    "UPDATE process_checkpoints SET position = -1 WHERE name = 'billingCollector'",
  );
  expect(await h.collector.runOnce()).toBeGreaterThan(0);
  await h.bill();
  // Not one event more: no second request, payment or wallet entry.
  expect(await eventCount()).toBe(before);
  expect(await h.balance(company.token)).toBe(balance);
});
