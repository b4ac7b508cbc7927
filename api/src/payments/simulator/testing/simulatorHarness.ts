import { type LedgerConsistency, ledgerConsistency } from '@issuer/projections';
import { expect } from 'vitest';
import {
  type Company,
  type CustomersHarness,
  startCustomersHarness,
} from '../../../customers/testing/customersHarness';
import { jsonOf } from '../../../http/testing/responses';
import type { PaymentResource } from '../../paymentView';
import { createPaymentScheduler, type PaymentScheduler } from '../../scheduler/paymentScheduler';
import { terminalWebhookPath } from '../../webhooks/webhookApi';
import { webhookSecretOf } from '../../webhooks/webhookSignature';
import { migrateTerminalSimulator } from '../simulatorTables';
import {
  createTerminalSimulator,
  simulatorGatewayName,
  type TerminalSimulator,
  type TerminalSimulatorGateway,
} from '../terminalSimulator';
import type { WebhookDeliveryOptions, WebhookTransport } from '../webhookOutbox';

export interface SimulatorHarness extends CustomersHarness {
  simulator: TerminalSimulator;
  /** The resumer and expirer, never running on their own: call `runOnce()`. */
  scheduler: PaymentScheduler;
  companyWithTerminal(): Promise<Company & { terminalId: string }>;
  registerTerminal(token: string): Promise<string>;
  pay(token: string, body: Record<string, unknown>): Promise<PaymentResource>;
  payment(token: string, paymentId: string): Promise<PaymentResource>;
  /** Delivers the simulator's webhooks due now, as the background loop would. */
  deliver(): Promise<number>;
  /** Every webhook request the simulator made, with the route's answer. */
  webhookStatuses: number[];
  /** Make the next `n` deliveries fail with this status before the route sees them. */
  failNextDeliveries(n: number, status?: number): void;
  /** Make the next `n` sendPayment calls fail, as an unreachable processor would. */
  failNextSends(n: number): void;
  /** Make the next `n` refundPayment calls fail, as an unreachable processor would. */
  failNextRefunds(n: number): void;
  /**
   * The company's ledger once the read models have everything written so far; fails the test
   * unless it balances and its available balance equals captured − refunded.
   */
  balancedLedger(companyId: string): Promise<LedgerConsistency>;
}

let deviceCounter = 0;

/**
 * The real app (every feature) with the terminal simulator as its gateway, delivering its signed
 * webhooks to the app's own webhook route through `app.request` (same clock, same secret).
 */
export async function startSimulatorHarness(
  delivery: WebhookDeliveryOptions = {},
): Promise<SimulatorHarness> {
  const gateway = lateBound();
  const h = await startCustomersHarness({ paymentGateway: gateway });
  await migrateTerminalSimulator(h.pool);
  const webhookStatuses: number[] = [];
  let failing = { count: 0, status: 503 };
  const deliver: WebhookTransport = async ({ body, headers }) => {
    if (failing.count > 0) {
      failing = { ...failing, count: failing.count - 1 };
      webhookStatuses.push(failing.status);
      return failing.status;
    }
    const res = await h.app.request(`/api${terminalWebhookPath}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body,
    });
    webhookStatuses.push(res.status);
    return res.status;
  };
  const simulator = createTerminalSimulator({
    pool: h.pool,
    clock: h.deps.clock,
    secret: webhookSecretOf(h.deps.config),
    deliver,
    delivery: { retryBaseMs: 1, retryMaxMs: 1, ...delivery },
  });
  gateway.bind(simulator);
  const scheduler = createPaymentScheduler(h.deps);

  async function registerTerminal(token: string) {
    deviceCounter += 1;
    const res = await h.call('POST', '/api/terminals', {
      token,
      body: { name: `Till ${deviceCounter}`, deviceId: `tsim_${deviceCounter}_${Date.now()}` },
    });
    expect(res.status).toBe(201);
    return (await jsonOf<{ id: string }>(res)).id;
  }

  return {
    ...h,
    simulator,
    scheduler,
    webhookStatuses,
    registerTerminal,
    async companyWithTerminal() {
      const company = await h.verifiedCompany();
      return { ...company, terminalId: await registerTerminal(company.token) };
    },
    async pay(token, body) {
      const res = await h.call('POST', '/api/payments', { token, body });
      if (res.status !== 201) throw new Error(`pay: ${res.status} ${await res.text()}`);
      return jsonOf<PaymentResource>(res);
    },
    async payment(token, paymentId) {
      const res = await h.call('GET', `/api/payments/${paymentId}`, { token });
      expect(res.status).toBe(200);
      return jsonOf<PaymentResource>(res);
    },
    async deliver() {
      // Retries wait at least a millisecond of real time; a loaded machine (the whole suite on two
      // cores) can need far more than a few rounds, so wait by the clock, not by a count.
      let delivered = 0;
      const giveUpAt = Date.now() + 10_000;
      while (Date.now() < giveUpAt) {
        delivered += await simulator.deliverDue();
        const { rows } = await h.pool.query(
          'SELECT 1 FROM terminal_simulator_webhooks WHERE delivered_at IS NULL LIMIT 1',
        );
        if (rows.length === 0) return delivered;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return delivered;
    },
    failNextDeliveries(count, status = 503) {
      failing = { count, status };
    },
    failNextSends: (count) => gateway.failNextSends(count),
    failNextRefunds: (count) => gateway.failNextRefunds(count),
    async balancedLedger(companyId) {
      // The last event committed so far (the store's head can lag a commit for a moment).
      const { rows } = await h.pool.query<{ head: string | null }>(
        'SELECT max(position)::text AS head FROM es_events',
      );
      const head = rows[0]?.head;
      if (head) expect(await h.deps.readModels.waitFor(BigInt(head), 10_000)).toBe(true);
      const ledger = await ledgerConsistency(h.pool, companyId);
      expect(ledger.balanced).toBe(true);
      return ledger;
    },
  };
}

/** The app's gateway exists before the database the simulator needs: bound once it does. */
export function lateBound(): TerminalSimulatorGateway & {
  bind(target: TerminalSimulatorGateway): void;
  failNextSends(count: number): void;
  failNextRefunds(count: number): void;
} {
  let target: TerminalSimulatorGateway | undefined;
  let failSends = 0;
  let failRefunds = 0;
  const unreachable = () => new Error('connect ECONNREFUSED (the processor is unreachable)');
  const bound = () => {
    if (!target) throw new Error('the simulator is not bound yet');
    return target;
  };
  return {
    name: simulatorGatewayName,
    bind: (simulator) => {
      target = simulator;
    },
    failNextSends: (count) => {
      failSends = count;
    },
    failNextRefunds: (count) => {
      failRefunds = count;
    },
    async sendPayment(request) {
      if (failSends > 0) {
        failSends -= 1;
        throw unreachable();
      }
      return bound().sendPayment(request);
    },
    async chargeSavedCard(request) {
      if (failSends > 0) {
        failSends -= 1;
        throw unreachable();
      }
      return bound().chargeSavedCard(request);
    },
    cancelPayment: (request) => bound().cancelPayment(request),
    async refundPayment(request) {
      if (failRefunds > 0) {
        failRefunds -= 1;
        throw unreachable();
      }
      return bound().refundPayment(request);
    },
    presentCard: (request) => bound().presentCard(request),
    waitingOn: (companyId, terminalId) => bound().waitingOn(companyId, terminalId),
  };
}
