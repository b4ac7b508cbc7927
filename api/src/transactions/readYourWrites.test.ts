import { ledgerConsistency } from '@issuer/projections';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionAnswer } from '../auth/testing/accountsHarness';
import type { Company } from '../customers/testing/customersHarness';
import { jsonOf } from '../http/testing/responses';
import { ledgerCheck } from '../payments/testing/ledgerCheck';
import { type PaymentsHarness, startPaymentsHarness } from '../payments/testing/paymentsHarness';

let h: PaymentsHarness;
let company: Company & { terminalId: string };
beforeAll(async () => {
  h = await startPaymentsHarness();
  company = await h.companyWithTerminal();
});
afterAll(() => h.close());
// After every test: each company's ledger balances and equals captured − refunded.
const ledger = ledgerCheck();
afterEach(() => ledger.verify(h));

const get = async <T = Record<string, unknown>>(path: string) =>
  jsonOf<T>(await h.call('GET', path, { token: company.token }));
const sidebar = async () =>
  (await get<SessionAnswer>('/api/auth/access-token')).user.data.fiatBalanceCad;
const expectLedger = async (availableCents: bigint) =>
  expect(await ledgerConsistency(h.pool, company.companyId)).toMatchObject({
    balanced: true,
    availableCents,
  });

describe('through the write side’s routes', () => {
  it('shows a captured payment, then a refund, in the lists and the sidebar as soon as each answers', async () => {
    const payment = await h.pay(company.token, {
      terminalId: company.terminalId,
      amountCents: 4_200,
      currency: 'CAD',
      description: 'Coffee beans',
    });
    const pending = await get<Record<string, unknown>[]>(
      `/api/payments?filter=${encodeURIComponent('{"status":"pending"}')}`,
    );
    expect(pending.map((row) => row.id)).toEqual([payment.id]);
    await h.capture(payment.id);
    expect(await sidebar()).toBe(42);
    expect(await get('/api/balance')).toMatchObject({ availableCents: 4_200 });
    await expectLedger(4_200n);

    const refunded = await h.call('POST', `/api/payments/${payment.id}/refunds`, {
      token: company.token,
      body: { amountCents: 1_050, reason: 'Half a bag' },
    });
    expect(refunded.status).toBe(201);
    expect(await sidebar()).toBe(31.5);
    expect(await get('/api/balance')).toMatchObject({ availableCents: 3_150 });
    const transactions = await get<{ kind: string; netCents: number }[]>('/api/transactions');
    expect(transactions.map((row) => [row.kind, row.netCents])).toEqual([
      ['refund', -1_050],
      ['payment', 4_200],
    ]);
    await expectLedger(3_150n);
  });

  it('lists each payment as GET /api/payments/:id shows it', async () => {
    const [listed] = await get<Record<string, unknown>[]>('/api/payments');
    const one = await jsonOf<Record<string, unknown>>(
      await h.getPayment(company.token, String(listed?.id)),
    );
    expect(listed).toEqual(one);
  });
});
