import { expect } from 'vitest';
import { createEtransferScheduler } from '../../etransfers/etransferScheduler';
import {
  type EtransferHarness,
  startEtransferHarness,
} from '../../etransfers/testing/etransferHarness';
import { jsonOf } from '../../http/testing/responses';
import { createTerminalSimulator, type TerminalSimulator } from '../../payments/simulator';
import { migrateTerminalSimulator } from '../../payments/simulator/simulatorTables';
import { lateBound } from '../../payments/simulator/testing/simulatorHarness';
import { terminalWebhookPath } from '../../payments/webhooks/webhookApi';
import { webhookSecretOf } from '../../payments/webhooks/webhookSignature';
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
  /** The terminal simulator, the app's card gateway here (saved cards, off-session charges). */
  terminals: TerminalSimulator;
  /** The app's card gateway (the simulator behind it): `failNextSends(n)` makes it unreachable. */
  cardGateway: ReturnType<typeof lateBound>;
  /** A card payment of the customer taken on a new terminal with "save the card"; the card's id. */
  saveCard(company: Payee, card?: string): Promise<string>;
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
  const gateway = lateBound();
  const h = await startEtransferHarness({}, gateway);
  await migrateBillingCollector(h.pool);
  await migrateTerminalSimulator(h.pool);
  const terminals = createTerminalSimulator({
    pool: h.pool,
    clock: h.deps.clock,
    secret: webhookSecretOf(h.deps.config),
    deliver: async ({ body, headers }) =>
      (
        await h.app.request(`/api${terminalWebhookPath}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...headers },
          body,
        })
      ).status,
    delivery: { retryBaseMs: 1, retryMaxMs: 1 },
  });
  gateway.bind(terminals);
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

  /**
   * Every terminal webhook, also those a background kick holds right now; by the clock (up to
   * 10 s), since a loaded machine outruns any count of short rounds.
   */
  async function deliverCards() {
    const giveUpAt = Date.now() + 10_000;
    while (Date.now() < giveUpAt) {
      await terminals.deliverDue();
      const { rows } = await h.pool.query(
        'SELECT 1 FROM terminal_simulator_webhooks WHERE delivered_at IS NULL LIMIT 1',
      );
      if (rows.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
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
      // Until the collector finds nothing more to act on: a card's outcome can come back through
      // a background webhook delivery while a pass runs, and is then handled by the next one.
      for (let pass = 0; pass < 5; pass++) {
        const acted = await collector.runOnce();
        await deliverCards();
        await h.settle();
        await caughtUp();
        if (pass > 0 && acted === 0) break;
      }
    },
    terminals,
    cardGateway: gateway,
    async saveCard(company, card) {
      counter += 1;
      const terminal = await h.call('POST', '/api/terminals', {
        token: company.token,
        body: { name: `Till ${counter}`, deviceId: `tbill_${counter}_${Date.now()}` },
      });
      expect(terminal.status).toBe(201);
      const { id: terminalId } = await jsonOf<{ id: string }>(terminal);
      const paid = await h.call('POST', '/api/payments', {
        token: company.token,
        body: {
          terminalId,
          amountCents: 100,
          currency: 'CAD',
          customerId: company.customerId,
          saveCard: true,
        },
      });
      expect(paid.status).toBe(201);
      const presented = await h.call(
        'POST',
        `/api/terminals/${terminalId}/simulator/present-card`,
        {
          token: company.token,
          body: card ? { card } : {},
        },
      );
      expect(presented.status).toBe(202);
      await deliverCards();
      await caughtUp();
      const cards = await h.call('GET', `/api/customers/${company.customerId}/cards`, {
        token: company.token,
      });
      expect(cards.status).toBe(200);
      const [newest] = await jsonOf<{ id: string }[]>(cards);
      if (!newest) throw new Error('the card was not saved');
      return newest.id;
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
