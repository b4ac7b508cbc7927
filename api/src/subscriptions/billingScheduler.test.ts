import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from '../kafka/testing/processes';
import { createBillingScheduler } from './billingScheduler';
import { createPlan, subscribe } from './subscriptionCommands';
import { type BillingHarness, type Payee, startBillingHarness } from './testing/billingHarness';

const worker = 'api/src/subscriptions/testing/billingWorker.ts';
let h: BillingHarness;
let company: Payee;
let databaseUrl: string;

beforeAll(async () => {
  h = await startBillingHarness();
  company = await h.companyWithCustomer();
  databaseUrl = (h.pool as unknown as { options: { connectionString: string } }).options
    .connectionString;
});
afterAll(() => h?.close());

/** `count` new subscriptions of one company to a fresh monthly plan, all due now. */
async function subscriptions(count: number): Promise<string[]> {
  const actor = { companyId: company.companyId, actorId: company.userId };
  const { planId } = await createPlan(h.deps, {
    ...actor,
    name: 'Monthly',
    amountCents: 1000,
    interval: 'month',
    intervalCount: 1,
    trialDays: 0,
  });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { subscriptionId } = await subscribe(h.deps, {
      ...actor,
      customerId: company.customerId,
      planId,
      collectionMethod: 'etransfer',
      startAt: null,
    });
    ids.push(subscriptionId);
  }
  await h.caughtUp();
  return ids;
}

/** Invoices per (subscription, period) in the event store, the source of truth. */
async function invoicesOf(ids: string[]) {
  const { rows } = await h.pool.query<{ stream_id: string; period: number; count: number }>(
    `SELECT stream_id, (data->>'periodIndex')::int AS period, count(*)::int AS count
       FROM es_events WHERE type = 'InvoiceIssued' AND stream_id = ANY($1)
      GROUP BY 1, 2 ORDER BY 1, 2`,
    [ids.map((id) => `Subscription-${id}`)],
  );
  return rows;
}

/**
 * The invoices once none appears for half a second: an append the killed worker had sent still
 * commits on the server after the process is gone.
 */
async function settledInvoicesOf(ids: string[]) {
  let seen = await invoicesOf(ids);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await invoicesOf(ids);
    if (now.length === seen.length) return now;
    seen = now;
  }
}

const onePerPeriod = (ids: string[], periods: number[]) =>
  ids
    .flatMap((id) =>
      periods.map((period) => ({ stream_id: `Subscription-${id}`, period, count: 1 })),
    )
    .sort((x, y) => x.stream_id.localeCompare(y.stream_id) || x.period - y.period);

const runWorker = (env: Record<string, string> = {}) =>
  runScript(worker, [], {
    DATABASE_URL: databaseUrl,
    BILLING_NOW: h.deps.clock().toISOString(),
    ...env,
  });

describe('the billing scheduler bills each period exactly once', () => {
  it('across restarts: a new scheduler (stale rows or caught up) bills nothing again; the next period once', async () => {
    const ids = await subscriptions(20);
    const first = createBillingScheduler(h.deps);
    expect((await first.runOnce()).invoices).toBe(20);
    // A restarted process: no memory of what it appended, the due rows maybe not caught up yet.
    expect((await createBillingScheduler(h.deps).runOnce()).invoices).toBe(0);
    await h.caughtUp();
    expect((await createBillingScheduler(h.deps).runOnce()).invoices).toBe(0);
    expect(await invoicesOf(ids)).toEqual(onePerPeriod(ids, [0]));
    await h.advanceDays(company, 31);
    expect((await createBillingScheduler(h.deps).runOnce()).invoices).toBe(20);
    expect((await first.runOnce()).invoices).toBe(0);
    await h.caughtUp();
    expect(await invoicesOf(ids)).toEqual(onePerPeriod(ids, [0, 1]));
    const { rows } = await h.pool.query(
      'SELECT count(*)::int AS n FROM billing_invoices WHERE subscription_id = ANY($1)',
      [ids],
    );
    expect(rows).toEqual([{ n: 40 }]);
  });

  it('after a SIGKILL in the middle of a pass: the next run bills the rest, nothing twice', {
    timeout: 120_000,
  }, async () => {
    const ids = await subscriptions(30);
    const killed = await runWorker({ BILLING_KILL_AFTER: '7' });
    expect(killed.code).toBeNull(); // killed by the signal
    const partial = await settledInvoicesOf(ids);
    const again = await runWorker();
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).invoices).toBe(30 - partial.length);
    await h.caughtUp();
    expect(await invoicesOf(ids)).toEqual(onePerPeriod(ids, [0]));
  });

  it('with two processes and two schedulers in this one billing the same due rows at once', async () => {
    const ids = await subscriptions(40);
    // Two schedulers here race on the same rows for real (each append guarded by the revision);
    // the two processes join as soon as they have started.
    const [one, two, here, there] = await Promise.all([
      runWorker(),
      runWorker(),
      createBillingScheduler(h.deps, { concurrency: 4 }).runOnce(),
      createBillingScheduler(h.deps, { concurrency: 4 }).runOnce(),
    ]);
    expect(one.code).toBe(0);
    expect(two.code).toBe(0);
    const issued =
      JSON.parse(one.stdout).invoices +
      JSON.parse(two.stdout).invoices +
      here.invoices +
      there.invoices;
    expect(issued).toBe(40);
    await h.caughtUp();
    expect(await invoicesOf(ids)).toEqual(onePerPeriod(ids, [0]));
  });
});
