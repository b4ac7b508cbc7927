import { expect } from 'vitest';
import type { Company, CustomersHarness } from '../../customers/testing/customersHarness';
import { jsonOf } from '../../http/testing/responses';
import { type PaymentsHarness, startPaymentsHarness } from '../../payments/testing/paymentsHarness';
import {
  createOrderProcessor,
  migrateOrderProcessor,
  type OrderProcessor,
} from '../orderProcessor';
import type { OrderResource } from '../queries';
import { SimulatedTokenLedger } from '../tokenLedger';

export type Json = Record<string, unknown>;

export interface OrdersHarness extends PaymentsHarness {
  ledger: SimulatedTokenLedger;
  processor: OrderProcessor;
  /** An issuer with a terminal, a share class and an open round. */
  issuerWithRound(round?: Json): Promise<Issuer>;
  /** A customer ready to order: a valid wallet, Documents Signed. */
  investor(company: Company, body?: Json): Promise<string>;
  /** GET `path` as `token`; throws unless it answers 200. */
  get<T = Json>(token: string, path: string): Promise<T>;
  order(issuer: Issuer, body: Json): Promise<Response>;
  /** Runs the order process until the order reaches `status` (or fails the test). */
  settle(
    issuer: Issuer,
    orderId: string,
    status: string,
    until?: (order: OrderResource) => boolean,
  ): Promise<OrderResource>;
}

export interface Issuer extends Company {
  terminalId: string;
  shareClassId: string;
  roundId: string;
}

export const wallet = '0x52908400098527886E0F7030069857D2E4169EE7';
let counter = 0;

async function ok(res: Response, status = 201): Promise<Json> {
  if (res.status !== status) throw new Error(`${res.status} ${await res.text()}`);
  return jsonOf<Json>(res);
}

/**
 * A share class and an open round of `company` (100 tokens at $1 each by default, open since a
 * minute ago, closing in 30 days); `round` overrides the round's fields.
 */
export async function openRound(
  h: CustomersHarness,
  company: Company,
  round: Json = {},
): Promise<{ shareClassId: string; roundId: string }> {
  const call = (method: string, path: string, body?: unknown) =>
    h.call(method, path, { token: company.token, body });
  counter += 1;
  const shareClass = await ok(
    await call('POST', '/api/share-classes', {
      name: `Common ${counter}`,
      kind: 'common',
      votesPerShare: 1,
      authorized: 1_000_000,
    }),
  );
  const now = h.deps.clock().getTime();
  const made = await ok(
    await call('POST', '/api/funding-rounds', {
      name: `Seed ${counter}`,
      handle: `seed-${counter}`,
      shareClassId: shareClass.id,
      tokenPriceCents: 100,
      raiseAmountCents: 100_000,
      opensAt: new Date(now - 60_000).toISOString(),
      closesAt: new Date(now + 30 * 86_400_000).toISOString(),
      ...round,
    }),
  );
  await ok(await call('POST', `/api/funding-rounds/${made.id}/open`), 200);
  return { shareClassId: shareClass.id as string, roundId: made.id as string };
}

/** A customer of `company` ready to order: a valid wallet, Documents Signed. */
export async function readyInvestor(
  h: CustomersHarness,
  company: Company,
  body: Json = {},
): Promise<string> {
  counter += 1;
  const customer = await h.addCustomer(company.token, {
    name: `Investor ${counter}`,
    email: `investor${counter}-${Date.now().toString(36)}@orders.test`,
    walletAddress: wallet,
    investorStatus: 'Documents Signed',
    ...body,
  });
  return customer.id as string;
}

export async function startOrdersHarness(): Promise<OrdersHarness> {
  const h = await startPaymentsHarness();
  await migrateOrderProcessor(h.pool);
  const ledger = new SimulatedTokenLedger({ delayMs: 0 });
  const processor = createOrderProcessor(h.deps, ledger);
  const call = (company: Company, method: string, path: string, body?: unknown) =>
    h.call(method, path, { token: company.token, body });
  return {
    ...h,
    ledger,
    processor,
    async issuerWithRound(round = {}) {
      const company = await h.issuerCompany();
      const terminalId = await h.registerTerminal(company.token);
      return { ...company, terminalId, ...(await openRound(h, company, round)) };
    },
    investor: (company, body = {}) => readyInvestor(h, company, body),
    async get<T = Json>(token: string, path: string) {
      const res = await h.call('GET', path, { token });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return jsonOf<T>(res);
    },
    order: (issuer, body) =>
      call(issuer, 'POST', '/api/token-orders', {
        roundId: issuer.roundId,
        payment: { method: 'terminal', terminalId: issuer.terminalId },
        ...body,
      }),
    async settle(issuer, orderId, status, until = () => true) {
      let last: OrderResource | undefined;
      for (let i = 0; i < 50; i++) {
        await processor.runOnce();
        const res = await call(issuer, 'GET', `/api/token-orders/${orderId}`);
        last = await jsonOf<OrderResource>(res);
        if (last.status === status && until(last)) return last;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(last?.status).toBe(status);
      throw new Error('unreachable');
    },
  };
}
