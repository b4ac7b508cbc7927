import { emptyCustomerProfile } from '@issuer/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionDatabase, recorded } from '../testing';
import {
  getAvailableBalance,
  getAvailableBalanceAsOf,
  ledgerConsistency,
  postLines,
  transfer,
} from './ledger';
import { moneyProjection } from './moneyProjection';
import { getPayment, listPayments } from './paymentQueries';
import { moneyMigration } from './schema';
import { paymentEvents } from './testing';
import {
  getTransaction,
  listTransactions,
  listTransactionsJson,
  streamTransactions,
} from './transactionQueries';

let db: Awaited<ReturnType<typeof projectionDatabase>>;
let nextPosition = 1n;
/** Applies events as one batch at the next positions; returns them for a replay. */
const given = async (events: { type: string; data: unknown }[]) => {
  const batch = recorded(events, nextPosition);
  nextPosition += BigInt(events.length);
  await db.apply(moneyProjection, batch);
  return batch;
};
beforeAll(async () => {
  db = await projectionDatabase([moneyProjection]);
});
afterAll(() => db.pool.end());

const customerAdded = (companyId: string, customerId: string, name: string, lastName: string) => ({
  type: 'CustomerAdded',
  data: {
    customerId,
    companyId,
    profile: { ...emptyCustomerProfile, name, lastName },
    leadStatus: 'Cold',
    investorStatus: 'Not Registered',
    starred: false,
    addedAt: '2026-01-01T00:00:00.000Z',
  },
});
const terminalRegistered = (companyId: string, terminalId: string, name: string) => ({
  type: 'PaymentTerminalRegistered',
  data: { companyId, terminalId, name, deviceId: `dev-${terminalId}` },
});
const transactions = (
  companyId: string,
  over: Partial<Parameters<typeof listTransactions>[1]> = {},
) =>
  listTransactions(db.pool, {
    companyId,
    sort: { field: 'createdAt', order: 'DESC' },
    range: { start: 0, end: 24 },
    filter: {},
    ...over,
  });
const expectConsistent = async (companyId: string, availableCents: bigint) => {
  const check = await ledgerConsistency(db.pool, companyId);
  expect(check).toMatchObject({ balanced: true, availableCents });
  expect(await getAvailableBalance(db.pool, companyId)).toBe(availableCents);
};

/** The transactions list's first page as the API answers it (the rows' stored JSON). */
const shownInList = async (companyId: string) =>
  JSON.parse(
    (
      await listTransactionsJson(db.pool, {
        companyId,
        sort: { field: 'createdAt', order: 'DESC' },
        range: { start: 0, end: 24 },
        filter: {},
      })
    ).json,
  ) as Record<string, unknown>[];

describe('a payment through its life', () => {
  const p = paymentEvents('co-a', 'pay-1');

  it('given a request on a named terminal for a named customer, then a pending row with both names', async () => {
    await given([
      terminalRegistered('co-a', 'term-1', 'Front desk'),
      customerAdded('co-a', 'cus-1', 'Ada', 'Lovelace'),
      p.requested({ customerId: 'cus-1', description: 'Deposit', amountCents: 5000 }),
      p.sent(),
    ]);
    expect(await getPayment(db.pool, 'co-a', 'pay-1')).toMatchObject({
      status: 'pending',
      terminalName: 'Front desk',
      customerName: 'Ada Lovelace',
      amountCents: 5000,
      refundedCents: 0,
      completedAt: null,
    });
    expect(await getPayment(db.pool, 'co-b', 'pay-1')).toBeUndefined();
    expect((await transactions('co-a')).total).toBe(0);
    await expectConsistent('co-a', 0n);
  });

  it('given authorized and captured, then a payment transaction and a balanced ledger entry', async () => {
    await given([p.authorized(5000), p.captured(5000)]);
    expect(await getPayment(db.pool, 'co-a', 'pay-1')).toMatchObject({
      status: 'captured',
      cardBrand: 'visa',
      cardLast4: '4242',
      completedAt: '2026-01-10T10:00:31.000Z',
    });
    expect(await getTransaction(db.pool, 'co-a', 'pay-1')).toMatchObject({
      kind: 'payment',
      status: 'succeeded',
      amountCents: 5000,
      netCents: 5000,
      customerName: 'Ada Lovelace',
      terminalName: 'Front desk',
      description: 'Deposit',
      cardLast4: '4242',
      createdAt: '2026-01-10T10:00:31.000Z',
    });
    const { rows } = await db.pool.query(
      `SELECT account, debit_cents::int AS debit, credit_cents::int AS credit
         FROM ledger_lines WHERE entry_id = 'capture:pay-1' ORDER BY line_no`,
    );
    expect(rows).toEqual([
      { account: 'external:card', debit: 5000, credit: 0 },
      { account: 'company:co-a:available', debit: 0, credit: 5000 },
    ]);
    await expectConsistent('co-a', 5000n);
  });

  it('given two partial refunds, then partially refunded, then refunded, each a negative transaction', async () => {
    await given([p.refunded('ref-1', 1500, '2026-01-11T09:00:00.000Z', 'damaged')]);
    expect(await getPayment(db.pool, 'co-a', 'pay-1')).toMatchObject({
      status: 'partially_refunded',
      refundedCents: 1500,
      refunds: [{ id: 'ref-1', amountCents: 1500, reason: 'damaged', refundedBy: 'user-1' }],
    });
    await expectConsistent('co-a', 3500n);
    await given([p.refunded('ref-2', 3500, '2026-01-12T09:00:00.000Z')]);
    expect(await getPayment(db.pool, 'co-a', 'pay-1')).toMatchObject({
      status: 'refunded',
      refundedCents: 5000,
    });
    expect(await getTransaction(db.pool, 'co-a', 'ref-2')).toMatchObject({
      kind: 'refund',
      amountCents: 3500,
      netCents: -3500,
      paymentId: 'pay-1',
      customerName: 'Ada Lovelace',
    });
    const list = await transactions('co-a');
    expect(list.rows.map((row) => row.id)).toEqual(['ref-2', 'ref-1', 'pay-1']);
    expect([list.total, list.netCents]).toEqual([3, 0n]);
    await expectConsistent('co-a', 0n);
  });

  it('given a refund, then pending until the processor confirms it, then succeeded; the net moves once', async () => {
    expect(await getTransaction(db.pool, 'co-a', 'ref-1')).toMatchObject({ status: 'pending' });
    await given([p.refundConfirmed('ref-1'), p.refundConfirmed('ref-1')]);
    expect(await getTransaction(db.pool, 'co-a', 'ref-1')).toMatchObject({
      status: 'succeeded',
      netCents: -1500,
    });
    expect((await getPayment(db.pool, 'co-a', 'pay-1'))?.refunds[0]).toMatchObject({
      id: 'ref-1',
      status: 'succeeded',
    });
    await expectConsistent('co-a', 0n);
  });

  it('answers the balance as of any time from the running balance', async () => {
    const asOf = (iso: string) => getAvailableBalanceAsOf(db.pool, 'co-a', new Date(iso));
    expect(await asOf('2026-01-10T10:00:30.999Z')).toBe(0n);
    expect(await asOf('2026-01-10T10:00:31.000Z')).toBe(5000n);
    expect(await asOf('2026-01-11T12:00:00.000Z')).toBe(3500n);
    expect(await asOf('2030-01-01T00:00:00.000Z')).toBe(0n);
    expect(await getAvailableBalanceAsOf(db.pool, 'co-b', new Date('2030-01-01'))).toBe(0n);
  });
});

describe('a refund the processor refused', () => {
  const p = paymentEvents('co-f', 'pay-f');
  const failedAt = '2026-01-11T09:00:05.000Z';

  it('given a refund then its failure, then the refund row is failed with net 0, the payment refunded less, the ledger reversed', async () => {
    await given([
      p.requested({ amountCents: 5000 }),
      p.captured(5000),
      p.refunded('ref-f1', 1000, '2026-01-11T09:00:00.000Z'),
      p.refundConfirmed('ref-f1'),
    ]);
    await given([
      p.refunded('ref-f2', 2000, '2026-01-11T09:00:01.000Z'),
      p.refundFailed('ref-f2', 2000, failedAt),
    ]);
    expect(await getPayment(db.pool, 'co-f', 'pay-f')).toMatchObject({
      status: 'partially_refunded',
      refundedCents: 1000,
      refunds: [
        { id: 'ref-f1', status: 'succeeded', failureReason: null },
        { id: 'ref-f2', status: 'failed', failureReason: 'expired_or_canceled_card' },
      ],
    });
    expect(await getTransaction(db.pool, 'co-f', 'ref-f2')).toMatchObject({
      kind: 'refund',
      status: 'failed',
      amountCents: 2000,
      netCents: 0,
    });
    const list = await transactions('co-f');
    expect([list.total, list.netCents]).toEqual([3, 4000n]);
    const failedOnly = await transactions('co-f', { filter: { status: ['failed'] } });
    expect(failedOnly.rows.map((row) => row.id)).toEqual(['ref-f2']);
    const refunds = await transactions('co-f', { filter: { kind: ['refund'] } });
    expect([refunds.total, refunds.netCents]).toEqual([2, -1000n]);
    await expectConsistent('co-f', 4000n);
    expect(await ledgerConsistency(db.pool, 'co-f')).toMatchObject({
      capturedCents: 5000n,
      refundedCents: 1000n,
    });
    const { rows } = await db.pool.query(
      `SELECT account, debit_cents::int AS debit, credit_cents::int AS credit FROM ledger_lines
        WHERE entry_id = 'refund-failed:ref-f2' ORDER BY line_no`,
    );
    expect(rows).toEqual([
      { account: 'external:card', debit: 2000, credit: 0 },
      { account: 'company:co-f:available', debit: 0, credit: 2000 },
    ]);
    expect(await getAvailableBalanceAsOf(db.pool, 'co-f', new Date(failedAt))).toBe(4000n);
  });

  it('given the last refund failed, then the payment is back to captured', async () => {
    await given([p.refundFailed('ref-f1', 1000)]);
    expect(await getPayment(db.pool, 'co-f', 'pay-f')).toMatchObject({
      status: 'captured',
      refundedCents: 0,
    });
    await expectConsistent('co-f', 5000n);
  });

  it('given the whole history again (a rebuild), then nothing changes', async () => {
    const batch = recorded(
      [
        p.requested({ amountCents: 5000 }),
        p.captured(5000),
        p.refunded('ref-f1', 1000, '2026-01-11T09:00:00.000Z'),
        p.refunded('ref-f2', 2000, '2026-01-11T09:00:01.000Z'),
        p.refundFailed('ref-f2', 2000, failedAt),
        p.refundFailed('ref-f1', 1000),
      ],
      1n,
    );
    const before = await transactions('co-f');
    await db.apply(moneyProjection, batch);
    expect(await transactions('co-f')).toEqual(before);
    await expectConsistent('co-f', 5000n);
  });
});

describe('payments that move no money', () => {
  it('given declined, cancelled and expired payments, then their statuses and no ledger lines', async () => {
    const d = paymentEvents('co-c', 'pay-d');
    const c = paymentEvents('co-c', 'pay-c');
    const e = paymentEvents('co-c', 'pay-e');
    await given([
      d.requested(),
      d.sent(),
      d.declined('insufficient_funds'),
      c.requested(),
      c.cancelled(),
      e.requested(),
      e.expired(),
    ]);
    expect(await getPayment(db.pool, 'co-c', 'pay-d')).toMatchObject({
      status: 'declined',
      declineReason: 'insufficient_funds',
    });
    expect((await getPayment(db.pool, 'co-c', 'pay-c'))?.status).toBe('cancelled');
    expect((await getPayment(db.pool, 'co-c', 'pay-e'))?.status).toBe('expired');
    const pending = await listPayments(db.pool, {
      companyId: 'co-c',
      sort: { field: 'requestedAt', order: 'DESC' },
      range: { start: 0, end: 9 },
      filter: { status: ['declined', 'cancelled'] },
    });
    expect(pending.total).toBe(2);
    expect((await transactions('co-c')).total).toBe(0);
    await expectConsistent('co-c', 0n);
  });
});

describe('replay and ordering', () => {
  it('given the same events again (a rebuild), then nothing changes, totals and ledger included', async () => {
    const p = paymentEvents('co-r', 'pay-r');
    const batch = await given([
      p.requested({ amountCents: 700 }),
      p.captured(700),
      p.refunded('ref-r', 200),
    ]);
    const before = await transactions('co-r');
    await db.apply(moneyProjection, batch);
    expect(await transactions('co-r')).toEqual(before);
    expect(await getPayment(db.pool, 'co-r', 'pay-r')).toMatchObject({ refundedCents: 200 });
    await expectConsistent('co-r', 500n);
  });

  it('given a capture posted before lines already there, then the later running balances move', async () => {
    const late = paymentEvents('co-o', 'pay-late');
    const early = paymentEvents('co-o', 'pay-early');
    await given([late.requested({ amountCents: 300 }), late.captured(300, '2026-02-02T00:00:00Z')]);
    await given([
      early.requested({ amountCents: 100 }),
      early.captured(100, '2026-02-01T00:00:00Z'),
    ]);
    const asOf = (iso: string) => getAvailableBalanceAsOf(db.pool, 'co-o', new Date(iso));
    expect(await asOf('2026-02-01T12:00:00Z')).toBe(100n);
    expect(await asOf('2026-02-03T00:00:00Z')).toBe(400n);
    await expectConsistent('co-o', 400n);
  });
});

describe('posting lines directly', () => {
  it('never posts an entry twice, even past the payment rows’ guard, and keeps balances right', async () => {
    const entry = (entryId: string, amountCents: number, postedAt: string, position: bigint) =>
      transfer({
        entryId,
        companyId: 'co-l',
        debit: 'external:card',
        credit: 'company:co-l:available',
        amountCents,
        postedAt,
        position,
        paymentId: entryId,
      });
    const client = await db.pool.connect();
    try {
      await postLines(client, entry('e1', 100, '2026-05-01T00:00:00Z', 1n));
      await postLines(client, [
        ...entry('e1', 100, '2026-05-01T00:00:00Z', 1n),
        ...entry('e2', 50, '2026-05-02T00:00:00Z', 2n),
      ]);
    } finally {
      client.release();
    }
    expect(await getAvailableBalance(db.pool, 'co-l')).toBe(150n);
    expect(await getAvailableBalanceAsOf(db.pool, 'co-l', new Date('2026-05-01T12:00:00Z'))).toBe(
      100n,
    );
    const { rows } = await db.pool.query(
      `SELECT count(*)::int AS n FROM ledger_lines WHERE company_id = 'co-l'`,
    );
    expect(rows[0].n).toBe(4);
  });
});

describe('names', () => {
  it('given a customer and a terminal renamed after their payments, then every row shows the new names', async () => {
    const p = paymentEvents('co-n', 'pay-n');
    await given([
      terminalRegistered('co-n', 'term-n', 'Till 1'),
      customerAdded('co-n', 'cus-n', 'Grace', 'Hopper'),
      { ...p.requested({ terminalId: 'term-n', customerId: 'cus-n' }) },
      p.captured(1000),
    ]);
    await given([
      {
        type: 'CustomerUpdated',
        data: { companyId: 'co-n', customerId: 'cus-n', changes: { lastName: 'Murray' } },
      },
      {
        type: 'PaymentTerminalRenamed',
        data: { companyId: 'co-n', terminalId: 'term-n', name: 'Till 2' },
      },
    ]);
    expect(await getPayment(db.pool, 'co-n', 'pay-n')).toMatchObject({
      customerName: 'Grace Murray',
      terminalName: 'Till 2',
    });
    expect(await getTransaction(db.pool, 'co-n', 'pay-n')).toMatchObject({
      customerName: 'Grace Murray',
      terminalName: 'Till 2',
    });
    expect(await shownInList('co-n')).toMatchObject([
      { id: 'pay-n', customerName: 'Grace Murray', terminalName: 'Till 2' },
    ]);
    expect((await transactions('co-n', { filter: { q: 'murray' } })).total).toBe(1);
    expect((await transactions('co-n', { filter: { q: 'hopper' } })).total).toBe(0);
  });

  it('given the terminal removed, then its rows show no terminal name, as the payment page does', async () => {
    await given([
      { type: 'PaymentTerminalRemoved', data: { companyId: 'co-n', terminalId: 'term-n' } },
    ]);
    expect((await getPayment(db.pool, 'co-n', 'pay-n'))?.terminalName).toBeNull();
    expect((await getTransaction(db.pool, 'co-n', 'pay-n'))?.terminalName).toBeNull();
    expect(await shownInList('co-n')).toMatchObject([{ id: 'pay-n', terminalName: null }]);
  });

  it('given a request deposited in a later batch, then its row shows the name the request named', async () => {
    const ids = { companyId: 'co-e', etransferId: 'et-e' };
    await given([
      customerAdded('co-e', 'cus-e', 'Ada', 'Lovelace'),
      {
        type: 'EtransferRequested',
        data: {
          ...ids,
          customerId: 'cus-e',
          recipientEmail: 'ada@example.test',
          amountCents: 2500,
          currency: 'CAD',
          message: null,
          reference: null,
          requestedBy: 'user-1',
          requestedAt: '2026-01-10T10:00:00.000Z',
          expiresAt: '2026-01-17T10:00:00.000Z',
        },
      },
    ]);
    await given([
      {
        type: 'EtransferDeposited',
        data: {
          ...ids,
          providerEventId: 'pe-e',
          amountCents: 2500,
          currency: 'CAD',
          depositedAt: '2026-01-11T10:00:00.000Z',
        },
      },
    ]);
    expect(await shownInList('co-e')).toMatchObject([{ id: 'et-e', customerName: 'Ada Lovelace' }]);
  });
});

describe('the transactions list', () => {
  const company = 'co-list';
  beforeAll(async () => {
    const events = [];
    for (let i = 0; i < 30; i += 1) {
      const p = paymentEvents(company, `p${String(i).padStart(2, '0')}`);
      const day = String(1 + (i % 28)).padStart(2, '0');
      events.push(
        p.requested({
          amountCents: 100 * (i + 1),
          customerId: i % 3 === 0 ? 'cus-x' : null,
          terminalId: i % 2 === 0 ? 'term-even' : 'term-odd',
          description: i === 7 ? 'Gold bar 7' : null,
        }),
        p.captured(100 * (i + 1), `2026-03-${day}T12:00:${String(i).padStart(2, '0')}Z`),
      );
      if (i % 10 === 0) events.push(p.refunded(`r${i}`, 50, `2026-04-01T00:00:${i / 10}0Z`));
    }
    await given(events);
  });
  const sum = (n: number) => (100 * n * (n + 1)) / 2;

  it('answers exact totals and net cents, unfiltered and by one dimension', async () => {
    const all = await transactions(company);
    expect([all.total, all.netCents]).toEqual([33, BigInt(sum(30) - 150)]);
    const refunds = await transactions(company, { filter: { kind: ['refund'] } });
    expect([refunds.total, refunds.netCents]).toEqual([3, -150n]);
    const byCustomer = await transactions(company, { filter: { customerId: 'cus-x' } });
    expect(byCustomer.total).toBe(10 + 1);
    const byTerminal = await transactions(company, { filter: { terminalId: 'term-odd' } });
    expect(byTerminal.total).toBe(15);
    const succeeded = await transactions(company, { filter: { status: ['succeeded'] } });
    expect(succeeded.total).toBe(30);
    // The processor never confirmed these refunds: still pending, already counted in the net.
    const pending = await transactions(company, { filter: { status: ['pending'] } });
    expect([pending.total, pending.netCents]).toEqual([3, -150n]);
    expect((await transactions(company, { filter: { status: ['failed'] } })).total).toBe(0);
  });

  it('filters by amount and date ranges (from inclusive, to exclusive) and by search', async () => {
    const amounts = await transactions(company, {
      filter: { amountMin: 2800, amountMax: 3000, kind: ['payment'] },
      sort: { field: 'amountCents', order: 'DESC' },
    });
    expect(amounts.rows.map((row) => row.amountCents)).toEqual([3000, 2900, 2800]);
    expect(amounts.netCents).toBe(8700n);
    const day = await transactions(company, {
      filter: {
        createdFrom: new Date('2026-03-02T12:00:01Z'),
        createdTo: new Date('2026-03-03T12:00:02Z'),
      },
    });
    expect(day.rows.map((row) => row.id)).toEqual(['p29', 'p01']);
    expect((await transactions(company, { filter: { q: 'GOLD bar' } })).rows[0]?.id).toBe('p07');
    expect((await transactions(company, { filter: { q: 'p1' } })).total).toBe(11);
    expect((await transactions('co-a', { filter: { q: 'p1' } })).total).toBe(0);
  });

  it('sorts by amount both ways and reads a last page from the far end', async () => {
    const sort = { field: 'amountCents' as const, order: 'ASC' as const };
    const first = await transactions(company, { sort, range: { start: 0, end: 2 } });
    expect(first.rows.map((row) => row.amountCents)).toEqual([50, 50, 50]);
    const last = await transactions(company, { sort, range: { start: 30, end: 39 } });
    expect(last.rows.map((row) => row.amountCents)).toEqual([2800, 2900, 3000]);
    const desc = await transactions(company, {
      sort: { ...sort, order: 'DESC' },
      range: { start: 29, end: 32 },
    });
    expect(desc.rows.map((row) => row.amountCents)).toEqual([100, 50, 50, 50]);
    expect((await transactions(company, { range: { start: 40, end: 49 } })).rows).toEqual([]);
  });

  it('streams every matching row for the export', async () => {
    const ids: string[] = [];
    for await (const batch of streamTransactions(db.pool, {
      companyId: company,
      sort: { field: 'createdAt', order: 'ASC' },
      filter: { kind: ['refund'] },
    })) {
      ids.push(...batch.map((row) => row.id));
    }
    expect(ids).toEqual(['r0', 'r10', 'r20']);
  });
});

describe('a filter with many matches', () => {
  it('counts them and reads a last page from the far end', async () => {
    // Rows as the projection writes them, more than a search reads whole (5,000).
    await db.pool.query(
      `INSERT INTO money_transactions (transaction_id, company_id, kind, status, amount_cents,
         net_cents, currency, payment_id, created_at, position)
       SELECT 'm' || lpad(i::text, 5, '0'), 'co-many', 'payment', 'succeeded', i, i, 'CAD',
              'm' || i, timestamptz '2026-01-01' + i * interval '1 minute', 900000 + i
         FROM generate_series(1, 6000) i`,
    );
    const filter = { amountMin: 2 };
    const first = await transactions('co-many', { filter });
    expect([first.total, first.netCents]).toEqual([5999, BigInt((6000 * 6001) / 2 - 1)]);
    expect(first.rows[0]?.id).toBe('m06000');
    const last = await transactions('co-many', { filter, range: { start: 5990, end: 5999 } });
    expect(last.rows.map((row) => row.amountCents)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2]);
  });
});

describe('a search’s totals, counted from the customers’ stored totals', () => {
  const company = 'co-search';
  beforeAll(async () => {
    const customers = [
      ['cus-s1', 'Hannah', 'Stone'],
      ['cus-s2', 'Johanna', 'Gold'],
      ['cus-s3', 'Otto', 'Hann'],
    ] as const;
    const events: { type: string; data: unknown }[] = customers.map(([id, name, last]) =>
      customerAdded(company, id, name, last),
    );
    for (let i = 0; i < 24; i += 1) {
      const p = paymentEvents(company, `s${String(i).padStart(2, '0')}`);
      events.push(
        p.requested({
          amountCents: 100 + i,
          customerId: [...customers.map(([id]) => id), null][i % 4] ?? null,
          description: [null, 'Hanna tea', 'Gold bar'][i % 3] ?? null,
        }),
        p.captured(100 + i, `2026-05-01T12:00:${String(i).padStart(2, '0')}Z`),
      );
      if (i % 5 === 0) events.push(p.refunded(`sr${i}`, 10, `2026-05-02T00:00:${10 + i}Z`));
    }
    await given(events);
  });

  it('equals counting the matching rows, for one word and several, without counting a row twice', async () => {
    const all = (await transactions(company, { range: { start: 0, end: 99 } })).rows;
    const matches = (q: string) =>
      all.filter((row) =>
        q
          .toLowerCase()
          .split(' ')
          .every(
            (word) =>
              `${row.customerName ?? ''} ${row.description ?? ''}`.toLowerCase().includes(word) ||
              row.paymentId.startsWith(word),
          ),
      );
    for (const q of [
      'hanna',
      'hann',
      'gold',
      'Hanna gold',
      'gold hanna tea',
      's1',
      'stone',
      'zzz',
    ]) {
      const expected = matches(q);
      const list = await transactions(company, { filter: { q } });
      expect([q, list.total, list.netCents]).toEqual([
        q,
        expected.length,
        BigInt(expected.reduce((sum, row) => sum + row.netCents, 0)),
      ]);
      expect(list.rows.map((row) => row.id)).toEqual(expected.slice(0, 25).map((row) => row.id));
    }
    expect(matches('hanna').length).toBeGreaterThan(10);
  });
});

describe('what a payment pays', () => {
  const order = {
    kind: 'token_order',
    orderId: 'ord-1',
    roundName: 'Seed round',
    tokens: 500,
  } as const;

  it('given a token order’s payment captured and refunded, then its row and both movements carry the purpose', async () => {
    const p = paymentEvents('co-purpose', 'pay-purpose');
    await given([
      p.requested({ description: '500 tokens of Seed round', purpose: order }),
      p.authorized(),
      p.captured(),
      p.refunded('ref-purpose', 400),
    ]);
    expect(await getPayment(db.pool, 'co-purpose', 'pay-purpose')).toMatchObject({
      description: '500 tokens of Seed round',
      purpose: order,
    });
    const shown = await shownInList('co-purpose');
    expect(shown.map((row) => [row.kind, row.purpose])).toEqual([
      ['refund', order],
      ['payment', order],
    ]);
  });

  it('given a payment a person took, then no purpose', async () => {
    const p = paymentEvents('co-no-purpose', 'pay-no-purpose');
    await given([p.requested({ description: 'Coffee' }), p.authorized(), p.captured()]);
    expect(await getPayment(db.pool, 'co-no-purpose', 'pay-no-purpose')).toMatchObject({
      purpose: null,
    });
    expect((await shownInList('co-no-purpose'))[0]).toMatchObject({ purpose: null });
  });

  it('given rows stored before the purpose column, then the upgrade answers it for them too', async () => {
    const p = paymentEvents('co-upgrade', 'pay-upgrade');
    await given([p.requested(), p.authorized(), p.captured()]);
    // The table as the release before this one left it: no column, no field in the stored JSON.
    await db.pool.query(`
      ALTER TABLE money_transactions DISABLE TRIGGER money_transactions_api_json;
      ALTER TABLE money_transactions DROP COLUMN purpose;
      UPDATE money_transactions SET api_json = (api_json::jsonb - 'purpose')::text;
      ALTER TABLE money_transactions ENABLE TRIGGER money_transactions_api_json;`);
    const stored = async () => {
      const { rows } = await db.pool.query<{ api_json: string }>(
        "SELECT api_json FROM money_transactions WHERE company_id = 'co-upgrade'",
      );
      return rows.map((row) => JSON.parse(row.api_json) as Record<string, unknown>);
    };
    expect(Object.keys((await stored())[0] ?? {})).not.toContain('purpose');

    await db.pool.query(moneyMigration);
    expect(await stored()).toEqual([expect.objectContaining({ purpose: null })]);
    await db.pool.query(moneyMigration);
    expect(await shownInList('co-upgrade')).toEqual([expect.objectContaining({ purpose: null })]);
  });
});
