import { expect } from 'vitest';
import {
  type Company,
  type CustomersHarness,
  startCustomersHarness,
} from '../../customers/testing/customersHarness';
import { jsonOf } from '../../http/testing/responses';
import type { PaymentTerminalGateway } from '../../payments/gateway';
import type { WebhookDeliveryOptions } from '../../payments/simulator/webhookOutbox';
import { ledgerCheck } from '../../payments/testing/ledgerCheck';
import { etransferWebhookSecretOf } from '../../payments/webhooks/webhookSignature';
import {
  createWalletRecorder,
  migrateWalletRecorder,
  type WalletRecorder,
} from '../../wallet/walletRecorder';
import {
  createEtransferSimulator,
  type EtransferSimulator,
  type EtransferSimulatorProvider,
  etransferSimulatorName,
  migrateEtransferSimulator,
} from '../simulator/etransferSimulator';
import { etransferWebhookPath } from '../webhookApi';

export type EtransferResource = {
  id: string;
  kind: string;
  status: string;
  customerId: string | null;
  customerName: string | null;
  amountCents: number;
  matchedBy: string | null;
  matchedByUser: string | null;
  matchReason: string | null;
  [field: string]: unknown;
};

export interface EtransferHarness extends CustomersHarness {
  simulator: EtransferSimulator;
  walletRecorder: WalletRecorder;
  webhookStatuses: number[];
  /** Delivers the simulator's webhooks due now, then lets the wallet recorder catch up. */
  settle(): Promise<void>;
  /** A verified company with one customer (with an email). */
  companyWithCustomer(email?: string): Promise<Company & { customerId: string; email: string }>;
  addPayee(token: string, email: string): Promise<string>;
  /** Puts money in the company's balance: an autodeposit from a stranger, delivered. */
  fund(company: Company, amountCents: number): Promise<void>;
  etransfer(token: string, id: string): Promise<EtransferResource>;
  balance(token: string): Promise<number>;
  ledger: ReturnType<typeof ledgerCheck>;
  /** The app's provider from now on (the HTTP adapter to the simulator's own process, say). */
  useProvider(provider: EtransferSimulatorProvider): void;
  /** Make the next `n` calls to the provider fail, as an unreachable provider would. */
  failNextProviderCalls(count: number): void;
}

let counter = 0;

/**
 * The real app (every feature) with the e-transfer simulator as its provider, delivering its
 * signed webhooks to the app's own webhook route (same clock, same secret), and the wallet
 * recorder run by hand (`settle`).
 */
export async function startEtransferHarness(
  delivery: WebhookDeliveryOptions = {},
  paymentGateway?: PaymentTerminalGateway,
): Promise<EtransferHarness> {
  const provider = lateBound();
  const h = await startCustomersHarness({
    etransferProvider: provider,
    ...(paymentGateway ? { paymentGateway } : {}),
  });
  await migrateEtransferSimulator(h.pool);
  await migrateWalletRecorder(h.pool);
  const webhookStatuses: number[] = [];
  const simulator = createEtransferSimulator({
    pool: h.pool,
    clock: h.deps.clock,
    secret: etransferWebhookSecretOf(h.deps.config),
    deliver: async ({ body, headers }) => {
      const res = await h.app.request(`/api${etransferWebhookPath}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body,
      });
      webhookStatuses.push(res.status);
      return res.status;
    },
    delivery: { retryBaseMs: 1, retryMaxMs: 1, ...delivery },
  });
  provider.bind(simulator);
  const walletRecorder = createWalletRecorder(h.deps);

  async function settle() {
    await simulator.deliverDue();
    // The last event committed so far (the store's visible head can lag a commit for a moment).
    const { rows } = await h.pool.query<{ head: string | null }>(
      'SELECT max(position)::text AS head FROM es_events',
    );
    const head = rows[0]?.head;
    if (head) expect(await h.deps.readModels.waitFor(BigInt(head), 10_000)).toBe(true);
    await walletRecorder.runOnce();
  }

  async function addPayee(token: string, email: string) {
    counter += 1;
    return (await h.addCustomer(token, { name: 'Ada', lastName: `Payee${counter}`, email })).id;
  }

  return {
    ...h,
    simulator,
    walletRecorder,
    webhookStatuses,
    settle,
    addPayee,
    async companyWithCustomer(email) {
      counter += 1;
      const company = await h.verifiedCompany();
      const address = email ?? `payee${counter}-${Date.now().toString(36)}@example.test`;
      return { ...company, email: address, customerId: await addPayee(company.token, address) };
    },
    async fund(company, amountCents) {
      counter += 1;
      const res = await h.call('POST', '/api/etransfers/simulator/incoming', {
        token: company.token,
        body: { fromEmail: `stranger${counter}@example.test`, amountCents },
      });
      expect(res.status).toBe(202);
      await settle();
    },
    async etransfer(token, id) {
      const res = await h.call('GET', `/api/etransfers/${id}`, { token });
      expect(res.status).toBe(200);
      return jsonOf<EtransferResource>(res);
    },
    async balance(token) {
      const res = await h.call('GET', '/api/balance', { token });
      expect(res.status).toBe(200);
      return (await jsonOf<{ availableCents: number }>(res)).availableCents;
    },
    ledger: ledgerCheck(),
    failNextProviderCalls: (count) => provider.failNext(count),
    useProvider: (adapter) => provider.bind(adapter),
  };
}

type LateBound = EtransferSimulatorProvider & {
  bind(target: EtransferSimulatorProvider): void;
  failNext(count: number): void;
};

function lateBound(): LateBound {
  let target: EtransferSimulatorProvider | undefined;
  let failing = 0;
  const bound = () => {
    if (!target) throw new Error('the simulator is not bound yet');
    return target;
  };
  const reachable = () => {
    if (failing > 0) {
      failing -= 1;
      throw new Error('connect ECONNREFUSED (the provider is unreachable)');
    }
    return bound();
  };
  const provider: LateBound = {
    name: etransferSimulatorName,
    bind: (simulator) => {
      target = simulator;
    },
    failNext: (count) => {
      failing = count;
    },
    requestMoney: async (request) => reachable().requestMoney(request),
    cancelRequest: (request) => bound().cancelRequest(request),
    sendMoney: async (request) => reachable().sendMoney(request),
    deposit: (companyId, id) => bound().deposit(companyId, id),
    decline: (companyId, id) => bound().decline(companyId, id),
    incoming: (request) => bound().incoming(request),
  };
  return provider;
}
