import { expect } from 'vitest';
import { createEtransferScheduler } from '../../etransfers/etransferScheduler';
import {
  type EtransferHarness,
  startEtransferHarness,
} from '../../etransfers/testing/etransferHarness';
import { jsonOf } from '../../http/testing/responses';
import {
  type BillingCollector,
  createBillingCollector,
  migrateBillingCollector,
} from '../billingCollector';
import { type BillingScheduler, createBillingScheduler } from '../billingScheduler';

export type Resource = { id: string; status: string; [field: string]: unknown };
export type Payee = Awaited<ReturnType<EtransferHarness['companyWithCustomer']>> & {
  adminEmail: string;
};

export interface BillingHarness extends Omit<EtransferHarness, 'companyWithCustomer'> {
  /** A verified company with one customer; `adminEmail` signs it in again. */
  companyWithCustomer(): Promise<Payee>;
  scheduler: BillingScheduler;
  collector: BillingCollector;
  /** Waits until the read models have every event committed so far. */
  caughtUp(): Promise<void>;
  /** One turn of everything billing runs: timer, collector, provider webhooks, e-transfer expiry. */
  bill(): Promise<void>;
  plan(company: Payee, body?: object): Promise<Resource>;
  subscribe(company: Payee, body: object): Promise<Resource>;
  get(company: Payee, path: string): Promise<Resource & Record<string, unknown>>;
  /** Moves the clock and signs the company in again (a token signed days ago has expired). */
  advanceDays(company: Payee, days: number): Promise<void>;
}

/** The e-transfer harness (real app, simulator, wallet recorder) with the billing workers run by hand. */
export async function startBillingHarness(): Promise<BillingHarness> {
  const h = await startEtransferHarness();
  await migrateBillingCollector(h.pool);
  const scheduler = createBillingScheduler(h.deps);
  const collector = createBillingCollector(h.deps);
  const etransferTimer = createEtransferScheduler(h.deps);

  async function caughtUp() {
    const { rows } = await h.pool.query<{ head: string | null }>(
      'SELECT max(position)::text AS head FROM es_events',
    );
    const head = rows[0]?.head;
    if (head) expect(await h.deps.readModels.waitFor(BigInt(head), 10_000)).toBe(true);
  }

  let counter = 0;
  return {
    ...h,
    async companyWithCustomer() {
      counter += 1;
      const company = await h.verifiedCompany();
      const email = `billed${counter}-${Date.now().toString(36)}@example.test`;
      const customerId = await h.addPayee(company.token, email);
      return { ...company, adminEmail: company.email, email, customerId };
    },
    scheduler,
    collector,
    caughtUp,
    async bill() {
      await caughtUp();
      await scheduler.runOnce();
      await etransferTimer.runOnce();
      await collector.runOnce();
      await h.settle();
      await collector.runOnce();
      await caughtUp();
    },
    async plan(company, body = {}) {
      const res = await h.call('POST', '/api/plans', {
        token: company.token,
        body: { name: 'Gold', amountCents: 1500, interval: 'month', ...body },
      });
      expect(res.status).toBe(201);
      return jsonOf<Resource>(res);
    },
    async subscribe(company, body) {
      const res = await h.call('POST', '/api/subscriptions', { token: company.token, body });
      expect(res.status).toBe(201);
      return jsonOf<Resource>(res);
    },
    async advanceDays(company, days) {
      h.advanceClock(days * 86_400_000);
      const res = await h.call('POST', '/api/auth', {
        body: { email: company.adminEmail, password: 'tundra-Falcon-42' },
      });
      expect(res.status).toBe(200);
      company.token = (await jsonOf<{ access_token: string }>(res)).access_token;
    },
    async get(company, path) {
      const res = await h.call('GET', path, { token: company.token });
      expect(res.status).toBe(200);
      return jsonOf<Resource>(res);
    },
  };
}
