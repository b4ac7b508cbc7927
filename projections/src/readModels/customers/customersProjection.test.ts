import {
  type CustomerEvent,
  type CustomerProfile,
  emptyCustomerProfile,
  type InvestorStatus,
} from '@issuer/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capTableProjection } from '../capTable/capTableProjection';
import { projectionDatabase, recorded } from '../testing';
import { customersProjection } from './customersProjection';
import { fundedRoundsProjection } from './fundedRoundsProjection';
import { getCustomer, listCustomers, streamCustomers } from './queries';

let db: Awaited<ReturnType<typeof projectionDatabase>>;
beforeAll(async () => {
  db = await projectionDatabase([customersProjection, capTableProjection, fundedRoundsProjection]);
});
afterAll(() => db.pool.end());

const added = (
  companyId: string,
  customerId: string,
  profile: Partial<CustomerProfile>,
  investorStatus: InvestorStatus = 'Not Registered',
): CustomerEvent => ({
  type: 'CustomerAdded',
  data: {
    customerId,
    companyId,
    profile: { ...emptyCustomerProfile, ...profile },
    leadStatus: 'Cold',
    investorStatus,
    starred: false,
    addedAt: '2025-03-01T10:00:00.000Z',
  },
});
const on = (companyId: string, customerId: string) => ({ companyId, customerId });
const withCompany = (companyId: string, events: CustomerEvent[]) =>
  events.map((event) => ({ ...event, companyId }));

const list = (companyId: string, overrides: Partial<Parameters<typeof listCustomers>[1]> = {}) =>
  listCustomers(db.pool, {
    companyId,
    sort: { field: 'name', order: 'ASC' },
    range: { start: 0, end: 24 },
    filter: {},
    ...overrides,
  });

describe('customers read model', () => {
  it('given adds, an update, a star, status changes and a removal, then rows and counts follow', async () => {
    await db.apply(
      customersProjection,
      recorded(
        withCompany('co-a', [
          added('co-a', 'a1', { name: 'Ada', email: 'ada@x.test', phone: '555-0100' }),
          added('co-a', 'a2', { name: 'Grace', email: 'grace@x.test' }),
          added('co-a', 'a3', { name: 'Linus', email: 'linus@x.test' }),
          { type: 'CustomerUpdated', data: { ...on('co-a', 'a1'), changes: { tags: ['vip'] } } },
          { type: 'CustomerStarred', data: on('co-a', 'a2') },
          {
            type: 'InvestorStatusChanged',
            data: {
              ...on('co-a', 'a2'),
              from: 'Not Registered',
              to: 'Registered with the product',
              kind: 'forward',
              reason: null,
              evidence: null,
              changedBy: 'u',
              changedAt: 'x',
            },
          },
          { type: 'LeadStatusChanged', data: { ...on('co-a', 'a3'), from: 'Cold', to: 'Hot' } },
          {
            type: 'CustomerRemoved',
            data: { ...on('co-a', 'a3'), email: 'linus@x.test', reason: null },
          },
        ]),
      ),
    );
    const all = await list('co-a');
    expect(all.total).toBe(2);
    expect(all.rows.map((row) => [row.name, row.tags, row.starred, row.investorStatus])).toEqual([
      ['Ada', ['vip'], false, 'Not Registered'],
      ['Grace', [], true, 'Registered with the product'],
    ]);
    expect((await list('co-a', { filter: { starred: true } })).total).toBe(1);
    expect((await list('co-a', { filter: { starred: false } })).total).toBe(1);
    expect(
      (await list('co-a', { filter: { investorStatus: ['Registered with the product'] } })).total,
    ).toBe(1);
    expect((await list('co-a', { filter: { leadStatus: ['Hot'] } })).total).toBe(0);
    expect(await getCustomer(db.pool, 'co-a', 'a3')).toBeUndefined();
    expect(await getCustomer(db.pool, 'co-b', 'a1')).toBeUndefined();
    expect(await getCustomer(db.pool, 'co-a', 'a1')).toMatchObject({ email: 'ada@x.test' });
  });

  it('given a status moved on in a later batch, then no count is kept at zero (as in a rebuild)', async () => {
    const status = (from: InvestorStatus, to: InvestorStatus): CustomerEvent => ({
      type: 'InvestorStatusChanged',
      data: {
        ...on('co-z', 'z1'),
        ...{ from, to, kind: 'forward', reason: null, evidence: null },
        ...{ changedBy: 'u', changedAt: 'x' },
      },
    });
    await db.apply(customersProjection, recorded([added('co-z', 'z1', { name: 'Zed' })]));
    await db.apply(
      customersProjection,
      recorded([status('Not Registered', 'Registered with the product')], 2n),
    );
    await db.apply(
      customersProjection,
      recorded([status('Registered with the product', 'KYC Complete')], 3n),
    );
    const { rows } = await db.pool.query(
      `SELECT value, total FROM customer_counts
        WHERE company_id = 'co-z' AND dimension = 'investorStatus'`,
    );
    expect(rows).toEqual([{ value: 'KYC Complete', total: '1' }]);
  });

  it('given the same events again, then nothing changes, counts included', async () => {
    const before = await list('co-a');
    await db.apply(
      customersProjection,
      recorded([
        added('co-a', 'a1', { name: 'Ada' }),
        added('co-a', 'a3', { name: 'Linus' }),
        { type: 'CustomerStarred', data: on('co-a', 'a1') },
      ]),
    );
    expect(await list('co-a')).toEqual(before);
    expect((await list('co-a', { filter: { starred: true } })).total).toBe(1);
  });

  it('searches substrings of name, email and phone, every word, within the company only', async () => {
    await db.apply(
      customersProjection,
      recorded([added('co-b', 'b1', { name: 'Ada', email: 'other@x.test' })], 100n),
    );
    const byPhone = await list('co-a', { filter: { q: '0100' } });
    expect(byPhone.rows.map((row) => row.id)).toEqual(['a1']);
    expect(byPhone.total).toBe(1);
    expect((await list('co-a', { filter: { q: 'RACE@X' } })).rows.map((row) => row.id)).toEqual([
      'a2',
    ]);
    expect((await list('co-a', { filter: { q: 'ada x.test' } })).total).toBe(1);
    expect((await list('co-a', { filter: { q: '100%' } })).total).toBe(0);
    expect((await list('co-a', { filter: { tags: ['vip'] } })).rows.map((r) => r.id)).toEqual([
      'a1',
    ]);
    expect((await list('co-a', { filter: { id: ['a2', 'b1'] } })).rows.map((r) => r.id)).toEqual([
      'a2',
    ]);
  });

  it('finds a Turkish name whatever the case or i typed, and takes a search as text, not a pattern', async () => {
    await db.apply(
      customersProjection,
      recorded(
        [
          added('co-t', 't1', { name: 'İpek', lastName: 'Işık', email: 'ipek@x.test' }),
          added('co-t', 't2', { name: 'Ali', lastName: 'Kaya', email: 'a.k@x.test' }),
        ],
        700n,
      ),
    );
    const found = async (q: string) =>
      (await list('co-t', { filter: { q } })).rows.map((row) => row.id);
    for (const typed of ['İpek', 'ipek', 'IPEK', 'Işık', 'ışık', 'IŞIK', 'işık', 'ipek ışık'])
      expect(await found(typed)).toEqual(['t1']);
    expect(await found('a.k@')).toEqual(['t2']);
    expect(await found('a*k')).toEqual([]);
    expect(await found('(')).toEqual([]);
  });

  it('sorts customers without a name last in both directions, by their email', async () => {
    await db.apply(
      customersProjection,
      recorded(
        [
          added('co-d', 'd1', { name: 'Bea', email: 'bea@x.test' }),
          added('co-d', 'd2', { name: '', email: 'zed@x.test' }),
          added('co-d', 'd3', { name: 'Abe', email: 'abe@x.test' }),
          added('co-d', 'd4', { name: '', email: 'amy@x.test' }),
        ],
        500n,
      ),
    );
    const order = async (sort: 'ASC' | 'DESC') =>
      (await list('co-d', { sort: { field: 'name', order: sort } })).rows.map((row) => row.email);
    expect(await order('ASC')).toEqual(['abe@x.test', 'bea@x.test', 'amy@x.test', 'zed@x.test']);
    expect(await order('DESC')).toEqual(['bea@x.test', 'abe@x.test', 'zed@x.test', 'amy@x.test']);
    const streamed: string[] = [];
    for await (const batch of streamCustomers(db.pool, {
      companyId: 'co-d',
      sort: { field: 'name', order: 'DESC' },
      filter: {},
    })) {
      streamed.push(...batch.map((row) => row.email));
    }
    expect(streamed).toEqual(await order('DESC'));
  });

  describe('a company of 57 customers', () => {
    const names = Array.from(
      { length: 57 },
      (_, i) => `Name ${String((i * 37) % 57).padStart(2, '0')}`,
    );
    beforeAll(async () => {
      await db.apply(
        customersProjection,
        recorded(
          names.map((name, i) => added('co-c', `c${String(i).padStart(2, '0')}`, { name })),
          1_000n,
        ),
      );
    });

    it.each([
      [0, 24, 'ASC'],
      [25, 49, 'ASC'],
      [50, 74, 'ASC'],
      [40, 56, 'DESC'],
      [30, 31, 'DESC'],
      [56, 56, 'ASC'],
    ] as const)('pages %i-%i %s read from either end alike', async (start, end, order) => {
      const sorted = [...names].sort();
      if (order === 'DESC') sorted.reverse();
      const page = await list('co-c', {
        sort: { field: 'name', order },
        range: { start, end },
      });
      expect(page.total).toBe(57);
      expect(page.rows.map((row) => row.name)).toEqual(sorted.slice(start, end + 1));
    });

    it('streams every row in order, in batches', async () => {
      const seen: string[] = [];
      for await (const batch of streamCustomers(
        db.pool,
        { companyId: 'co-c', sort: { field: 'name', order: 'DESC' }, filter: {} },
        10,
      )) {
        expect(batch.length).toBeLessThanOrEqual(10);
        seen.push(...batch.map((row) => row.name));
      }
      expect(seen).toEqual([...names].sort().reverse());
    });

    it('ends the export transaction when the reader stops early', async () => {
      for await (const batch of streamCustomers(
        db.pool,
        { companyId: 'co-c', sort: { field: 'name', order: 'ASC' }, filter: {} },
        5,
      )) {
        expect(batch).toHaveLength(5);
        break;
      }
      // The next reader on the same pool would fail inside a left-open transaction.
      expect((await list('co-c')).total).toBe(57);
    });
  });
});
