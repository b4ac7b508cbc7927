import { ledgerConsistency } from '@issuer/projections';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type Company,
  type CustomersHarness,
  startCustomersHarness,
} from '../customers/testing/customersHarness';
import { errorOf, jsonOf } from '../http/testing/responses';
import { ledgerCheck } from '../payments/testing/ledgerCheck';
import {
  appendPayment,
  listParams,
  type PaidPayment,
  registerTerminal,
} from './testing/moneyHarness';

interface Transaction {
  id: string;
  kind: string;
  status: string;
  amountCents: number;
  netCents: number;
  paymentId: string;
  customerName: string | null;
  terminalName: string | null;
  description: string | null;
  refundReason: string | null;
  createdAt: string;
}

let h: CustomersHarness;
let a: Company;
let b: Company;
let terminalId: string;
let customerId: string;
let big: PaidPayment;
let small: PaidPayment;
let other: PaidPayment;

beforeAll(async () => {
  h = await startCustomersHarness();
  [a, b] = [await h.verifiedCompany(), await h.verifiedCompany()];
  terminalId = await registerTerminal(h, a, 'Front desk');
  customerId = (
    await h.addCustomer(a.token, { name: 'Ada', lastName: 'Lovelace', email: 'ada@money.test' })
  ).id;
  big = await appendPayment(h, a, {
    amountCents: 12_345,
    terminalId,
    customerId,
    description: 'Gold bar',
    capturedAt: '2026-01-10T10:00:00.000Z',
    refunds: [{ amountCents: 2_345, reason: 'damaged', refundedAt: '2026-01-12T09:00:00.000Z' }],
  });
  small = await appendPayment(h, a, {
    amountCents: 500,
    terminalId,
    description: '=HYPERLINK("x")',
    capturedAt: '2026-01-11T10:00:00.000Z',
  });
  await appendPayment(h, a, { amountCents: 999, terminalId, outcome: 'declined' });
  other = await appendPayment(h, b, { amountCents: 777, capturedAt: '2026-01-11T12:00:00.000Z' });
});
afterAll(() => h.close());
// After every test: each company's ledger balances and equals captured − refunded.
const ledger = ledgerCheck();
afterEach(() => ledger.verify(h));

const get = (path: string, token = a.token) => h.call('GET', path, { token });
const list = async (params: Parameters<typeof listParams>[0], token = a.token) => {
  const res = await get(`/api/transactions${listParams(params)}`, token);
  expect(res.status).toBe(200);
  return {
    rows: await jsonOf<Transaction[]>(res),
    range: res.headers.get('Content-Range'),
    net: res.headers.get('X-Total-Net-Cents'),
  };
};

describe('GET /api/transactions', () => {
  it('lists every money movement newest first, with the exact total and net', async () => {
    const { rows, range, net } = await list({});
    expect(rows.map((row) => [row.kind, row.amountCents, row.netCents])).toEqual([
      ['refund', 2_345, -2_345],
      ['payment', 500, 500],
      ['payment', 12_345, 12_345],
    ]);
    expect(rows[0]).toMatchObject({
      id: big.refundIds[0],
      paymentId: big.paymentId,
      status: 'succeeded',
      currency: 'CAD',
      refundReason: 'damaged',
      customerName: 'Ada Lovelace',
      terminalName: 'Front desk',
      createdAt: '2026-01-12T09:00:00.000Z',
    });
    expect(rows[0]).not.toHaveProperty('companyId');
    expect(range).toBe('transactions 0-2/3');
    expect(net).toBe(String(12_345 + 500 - 2_345));
  });

  it('shows each row as GET /api/transactions/:id does, on every kind of page', async () => {
    const pages = [
      await list({}),
      await list({ filter: { q: 'lovelace' } }),
      await list({ filter: { amountMin: 500 } }),
      await list({ range: [2, 2] }),
    ];
    for (const { rows } of pages) {
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows)
        expect(row).toEqual(await jsonOf(await get(`/api/transactions/${row.id}`)));
    }
    const res = await get('/api/transactions');
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
  });

  it('filters by kind, customer, terminal, amount, dates and search, and sorts by amount', async () => {
    expect((await list({ filter: { kind: 'refund' } })).net).toBe('-2345');
    expect((await list({ filter: { customerId } })).range).toBe('transactions 0-1/2');
    expect((await list({ filter: { terminalId } })).range).toBe('transactions 0-2/3');
    const amounts = await list({ filter: { amountMin: 500, amountMax: 2_345 } });
    expect(amounts.rows.map((row) => row.amountCents)).toEqual([2_345, 500]);
    const dates = await list({
      filter: { createdFrom: '2026-01-10', createdTo: '2026-01-11T10:00:00Z' },
    });
    expect(dates.rows.map((row) => row.id)).toEqual([big.paymentId]);
    expect((await list({ filter: { q: 'lovelace' } })).range).toBe('transactions 0-1/2');
    expect((await list({ filter: { q: 'ADA LOVELACE' } })).range).toBe('transactions 0-1/2');
    expect((await list({ filter: { q: small.paymentId.slice(0, 16) } })).rows).toHaveLength(1);
    const sorted = await list({ sort: ['amountCents', 'ASC'], range: [1, 2] });
    expect(sorted.rows.map((row) => row.amountCents)).toEqual([2_345, 12_345]);
    expect(sorted.range).toBe('transactions 1-2/3');
    const empty = await list({ filter: { status: 'failed' } });
    expect([empty.rows, empty.range, empty.net]).toEqual([[], 'transactions */0', '0']);
  });

  it('lets a browser on another origin read the totals headers', async () => {
    const res = await h.call('GET', '/api/transactions', {
      token: a.token,
      headers: { Origin: 'http://localhost:5173' },
    });
    expect(res.headers.get('Access-Control-Expose-Headers')).toContain('X-Total-Net-Cents');
  });

  it.each([
    ['filter', { amountMin: 1.5 }, 'filter.amountMin'],
    ['filter', { amountMin: -1 }, 'filter.amountMin'],
    ['filter', { amountMax: '10' }, 'filter.amountMax'],
    ['filter', { createdFrom: 'yesterday' }, 'filter.createdFrom'],
    ['filter', { createdFrom: '2026-02-01', createdTo: '2026-01-01' }, 'filter.createdTo'],
    ['filter', { kind: 'gift' }, 'filter.kind'],
    ['filter', { colour: 'red' }, 'filter.colour'],
    ['sort', ['companyId', 'ASC'], 'sort.0'],
    ['range', [5, 1], 'range'],
  ])('refuses a bad %s %j with a 400 naming %s', async (key, value, field) => {
    const res = await get(`/api/transactions?${key}=${encodeURIComponent(JSON.stringify(value))}`);
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe('invalid_request');
    expect(Object.keys(error.fields ?? {})).toContain(field);
  });

  it('shows one transaction, and 404 for another company’s or an unknown one', async () => {
    const res = await get(`/api/transactions/${big.paymentId}`);
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toMatchObject({ kind: 'payment', description: 'Gold bar' });
    expect((await get(`/api/transactions/${other.paymentId}`)).status).toBe(404);
    expect((await get('/api/transactions/pay_nothing')).status).toBe(404);
  });

  it('lets compliance read; refuses without a token and to an unverified company', async () => {
    const compliance = await h.complianceToken(a.token);
    expect((await list({}, compliance)).range).toBe('transactions 0-2/3');
    expect((await h.call('GET', '/api/transactions')).status).toBe(401);
    const unverified = await h.unverifiedCompany();
    expect((await get('/api/transactions', unverified.token)).status).toBe(403);
  });
});

describe('tenancy', () => {
  it('company B sees only its own rows on every route', async () => {
    const mine = await list({}, b.token);
    expect(mine.rows.map((row) => row.id)).toEqual([other.paymentId]);
    expect([mine.range, mine.net]).toEqual(['transactions 0-0/1', '777']);
    expect((await list({ filter: { customerId } }, b.token)).range).toBe('transactions */0');
    expect((await list({ filter: { terminalId } }, b.token)).range).toBe('transactions */0');
    expect((await list({ filter: { id: [big.paymentId] } }, b.token)).rows).toEqual([]);
    expect((await get(`/api/transactions/${big.paymentId}`, b.token)).status).toBe(404);
    const csv = await (await get('/api/transactions/export.csv', b.token)).text();
    expect(csv.trim().split('\n')).toHaveLength(2);
    expect(csv).not.toContain(big.paymentId);
    const legacy = await jsonOf<Transaction[]>(
      await get(`/api/contacts-app/transactions?customerId=${customerId}`, b.token),
    );
    expect(legacy).toEqual([]);
    const payments = await get('/api/payments', b.token);
    expect(payments.headers.get('Content-Range')).toBe('payments 0-0/1');
    const balance = await jsonOf(await get('/api/balance', b.token));
    expect(balance).toEqual({ currency: 'CAD', availableCents: 777, asOf: null });
  });
});

describe('GET /api/transactions/export.csv', () => {
  it('streams every matching row with the list’s filters, formulas neutralized', async () => {
    const res = await get(`/api/transactions/export.csv${listParams({ filter: { terminalId } })}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toContain('text/csv');
    expect(res.headers.get('Content-Disposition')).toContain('transactions.csv');
    const lines = (await res.text()).trim().split('\n');
    expect(lines[0]).toBe(
      'id,createdAt,kind,status,amount,net,currency,amountCents,netCents,paymentId,refundReason,' +
        'customerId,customerName,terminalId,terminalName,description,cardBrand,cardLast4',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(',refund,succeeded,23.45,-23.45,CAD,2345,-2345,');
    expect(lines[2]).toContain(`'=HYPERLINK(""x"")`);
    expect((await get('/api/transactions/export.csv?filter={"amountMin":-5}')).status).toBe(400);
  });
});

describe('GET /api/contacts-app/transactions', () => {
  it('answers a customer’s transactions from the same read model, and views by kind', async () => {
    const res = await get(`/api/contacts-app/transactions?customerId=${customerId}`);
    expect(res.status).toBe(200);
    const rows = await jsonOf<Transaction[]>(res);
    expect(rows.map((row) => row.kind)).toEqual(['refund', 'payment']);
    const refunds = await jsonOf<Transaction[]>(
      await get('/api/contacts-app/transactions?id=refunds'),
    );
    expect(refunds.map((row) => row.id)).toEqual(big.refundIds);
    expect((await get('/api/contacts-app/transactions?id=nope')).status).toBe(400);
  });
});

describe('GET /api/payments', () => {
  it('lists payments newest first with status, names and refundable amounts', async () => {
    const res = await get(`/api/payments${listParams({ sort: ['amountCents', 'DESC'] })}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Range')).toBe('payments 0-2/3');
    const rows = await jsonOf<Record<string, unknown>[]>(res);
    expect(rows.map((row) => [row.amountCents, row.status, row.refundableCents])).toEqual([
      [12_345, 'partially_refunded', 10_000],
      [999, 'declined', 0],
      [500, 'captured', 500],
    ]);
    expect(rows[0]).toMatchObject({
      id: big.paymentId,
      terminalName: 'Front desk',
      customerName: 'Ada Lovelace',
      refundedCents: 2_345,
      refunds: [{ id: big.refundIds[0], amountCents: 2_345, reason: 'damaged' }],
      cardBrand: 'visa',
      currency: 'CAD',
    });
  });

  it('filters by status (one or several), terminal, customer and search; 400 names the field', async () => {
    const count = async (filter: object) =>
      (await get(`/api/payments${listParams({ filter })}`)).headers.get('Content-Range');
    expect(await count({ status: 'declined' })).toBe('payments 0-0/1');
    expect(await count({ status: ['captured', 'partially_refunded'] })).toBe('payments 0-1/2');
    expect(await count({ status: 'pending' })).toBe('payments */0');
    expect(await count({ terminalId, customerId })).toBe('payments 0-0/1');
    expect(await count({ q: 'gold' })).toBe('payments 0-0/1');
    const bad = await get(`/api/payments${listParams({ filter: { status: 'paid' } })}`);
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).fields).toHaveProperty(['filter.status']);
  });
});

describe('the ledger behind these routes', () => {
  it('balances and equals captured − refunded for each company', async () => {
    expect(await ledgerConsistency(h.pool, a.companyId)).toEqual({
      balanced: true,
      availableCents: 10_500n,
      capturedCents: 12_845n,
      refundedCents: 2_345n,
      depositedCents: 0n,
      paidOutCents: 0n,
    });
    expect((await ledgerConsistency(h.pool, b.companyId)).balanced).toBe(true);
  });
});
