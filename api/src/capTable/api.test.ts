import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Company,
  type CustomersHarness,
  startCustomersHarness,
} from '../customers/testing/customersHarness';
import { errorOf, jsonOf } from '../http/testing/responses';

let h: CustomersHarness;
let a: Company;
let b: Company;
let counter = 0;

beforeAll(async () => {
  h = await startCustomersHarness();
  a = await h.verifiedCompany();
  b = await h.verifiedCompany();
});
afterAll(() => h?.close());

type Json = Record<string, unknown>;
const call = (company: Company | string, method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: typeof company === 'string' ? company : company.token, body });

async function created(res: Response, status = 201) {
  if (res.status !== status) throw new Error(`${res.status} ${await res.text()}`);
  return jsonOf<Json>(res);
}

async function fieldsOf(res: Response, status = 400) {
  expect(res.status).toBe(status);
  return (await errorOf(res)).fields ?? {};
}

async function holder(company: Company, name = 'Holder') {
  counter += 1;
  const customer = await h.addCustomer(company.token, {
    name: `${name} ${counter}`,
    email: `holder${counter}-${Date.now().toString(36)}@cap.test`,
  });
  return customer.id as string;
}

const shareClass = (company: Company, body: Json = {}) =>
  call(company, 'POST', '/api/share-classes', {
    name: `Common ${++counter}`,
    kind: 'common',
    votesPerShare: 1,
    authorized: 1_000_000,
    ...body,
  }).then((res) => created(res));

const issue = (company: Company, body: Json) =>
  call(company, 'POST', '/api/issuances', { reason: 'Founder grant', ...body });

const capTable = async (company: Company, query = '') => {
  const res = await call(company, 'GET', `/api/cap-table${query}`);
  expect(res.status).toBe(200);
  return jsonOf<{
    asOf: string;
    shareClasses: Json[];
    holders: { customerId: string; shares: number; percentOwned: number; byClass: Json[] }[];
    totals: { authorized: number; issued: number; holders: number };
  }>(res);
};

describe('share classes', () => {
  it('creates one with its terms and defaults, lists it, changes it while unused', async () => {
    const made = await shareClass(a, { name: 'Series A Preferred', kind: 'preferred' });
    expect(made).toMatchObject({
      id: expect.stringMatching(/^shc_/),
      name: 'Series A Preferred',
      kind: 'preferred',
      votesPerShare: 1,
      authorized: 1_000_000,
      issued: 0,
      parValue: '0',
      liquidationPreferenceMultiple: 1,
      seniority: 0,
    });
    const list = await call(a, 'GET', '/api/share-classes');
    expect(list.headers.get('Content-Range')).toMatch(/^share-classes 0-\d+\/\d+$/);
    expect((await jsonOf<Json[]>(list)).map((row) => row.id)).toContain(made.id);
    const put = await call(a, 'PUT', `/api/share-classes/${made.id}`, {
      name: 'Series A Preferred',
      kind: 'preferred',
      votesPerShare: 0,
      authorized: 2_000_000,
      parValue: '0.0001',
      liquidationPreferenceMultiple: 1.5,
      seniority: 2,
    });
    expect(await created(put, 200)).toMatchObject({
      votesPerShare: 0,
      authorized: 2_000_000,
      parValue: '0.0001',
      liquidationPreferenceMultiple: 1.5,
      seniority: 2,
    });
  });

  it('once used, keeps its terms and never authorizes fewer shares than issued', async () => {
    const used = await shareClass(a, { authorized: 1000 });
    expect(
      (await issue(a, { shareClassId: used.id, customerId: await holder(a), shares: 600 })).status,
    ).toBe(201);
    const put = (body: Json) =>
      call(a, 'PUT', `/api/share-classes/${used.id}`, {
        name: used.name,
        kind: 'common',
        votesPerShare: 1,
        authorized: 1000,
        ...body,
      });
    expect(await fieldsOf(await put({ votesPerShare: 10 }), 409)).toHaveProperty('votesPerShare');
    expect(await fieldsOf(await put({ authorized: 599 }), 409)).toEqual({
      authorized: 'At least 600, the shares already issued',
    });
    expect(
      await created(await put({ name: 'Common (founders)', authorized: 600 }), 200),
    ).toMatchObject({
      name: 'Common (founders)',
      authorized: 600,
      issued: 600,
      available: 0,
    });
  });

  it('answers bad input with 400 naming the field, and writes nothing', async () => {
    const before = (await jsonOf<Json[]>(await call(a, 'GET', '/api/share-classes?range=[0,999]')))
      .length;
    const bad = (body: Json) =>
      call(a, 'POST', '/api/share-classes', {
        name: 'X',
        kind: 'common',
        votesPerShare: 1,
        authorized: 10,
        ...body,
      });
    expect(await fieldsOf(await bad({ name: ' ' }))).toHaveProperty('name');
    expect(await fieldsOf(await bad({ kind: 'ordinary' }))).toHaveProperty('kind');
    expect(await fieldsOf(await bad({ votesPerShare: 1.5 }))).toHaveProperty('votesPerShare');
    expect(await fieldsOf(await bad({ authorized: 0 }))).toHaveProperty('authorized');
    expect(await fieldsOf(await bad({ parValue: '-1' }))).toHaveProperty('parValue');
    expect(await fieldsOf(await bad({ liquidationPreferenceMultiple: 1.234 }))).toHaveProperty(
      'liquidationPreferenceMultiple',
    );
    expect(await fieldsOf(await bad({ surprise: 1 }))).toHaveProperty('surprise');
    const taken = await shareClass(a);
    expect(await fieldsOf(await bad({ name: taken.name }), 409)).toEqual({
      name: 'Already in use',
    });
    const after = (await jsonOf<Json[]>(await call(a, 'GET', '/api/share-classes?range=[0,999]')))
      .length;
    expect(after).toBe(before + 1);
  });

  it("another company's class is 404 everywhere; compliance reads and cannot write", async () => {
    const theirs = await shareClass(b);
    expect((await call(a, 'GET', `/api/share-classes/${theirs.id}`)).status).toBe(404);
    const terms = { name: 'Mine', kind: 'common', votesPerShare: 1, authorized: 5 };
    expect((await call(a, 'PUT', `/api/share-classes/${theirs.id}`, terms)).status).toBe(404);
    expect(
      (await issue(a, { shareClassId: theirs.id, customerId: await holder(a), shares: 1 })).status,
    ).toBe(404);
    // b's class, a's customer: the customer is not b's.
    expect(
      (await issue(b, { shareClassId: theirs.id, customerId: await holder(a), shares: 1 })).status,
    ).toBe(404);
    const compliance = await h.complianceToken(a.token);
    expect((await call(compliance, 'GET', '/api/cap-table')).status).toBe(200);
    expect((await call(compliance, 'POST', '/api/share-classes', terms)).status).toBe(403);
    const unverified = await h.unverifiedCompany();
    expect((await call(unverified, 'GET', '/api/cap-table')).status).toBe(403);
    expect((await h.call('GET', '/api/cap-table')).status).toBe(401);
  });
});

describe('issuances and transfers', () => {
  it('refuse bad input, more than authorized and more than the sender holds, naming the field', async () => {
    const common = await shareClass(a, { authorized: 100 });
    const alice = await holder(a);
    const bob = await holder(a);
    const bad = (body: Json) =>
      issue(a, { shareClassId: common.id, customerId: alice, shares: 10, ...body });
    expect(await fieldsOf(await bad({ shares: 0 }))).toHaveProperty('shares');
    expect(await fieldsOf(await bad({ shares: '10' }))).toHaveProperty('shares');
    expect(await fieldsOf(await bad({ date: 'yesterday' }))).toHaveProperty('date');
    expect(await fieldsOf(await bad({ reason: '' }))).toHaveProperty('reason');
    expect(await fieldsOf(await bad({ date: '2999-01-01' }))).toHaveProperty('date');
    expect(await fieldsOf(await bad({ shares: 101 }), 409)).toEqual({
      shares: `Only 100 shares of ${common.name} are left to issue (authorized 100)`,
    });
    const issued = await created(await bad({ shares: 60 }));
    expect(issued).toMatchObject({
      id: expect.stringMatching(/^iss_/),
      customerId: alice,
      shares: 60,
      actor: a.userId,
    });
    expect(await fieldsOf(await bad({ date: '2020-01-01' }), 409)).toHaveProperty('date');
    const transfer = (body: Json) =>
      call(a, 'POST', '/api/transfers', {
        shareClassId: common.id,
        fromCustomerId: alice,
        toCustomerId: bob,
        shares: 61,
        reason: 'Secondary sale',
        ...body,
      });
    expect(await fieldsOf(await transfer({}), 409)).toEqual({
      shares: `The sender holds 60 shares of ${common.name}`,
    });
    expect(await fieldsOf(await transfer({ toCustomerId: alice }))).toHaveProperty('toCustomerId');
    expect(await created(await transfer({ shares: 20 }))).toMatchObject({
      fromCustomerId: alice,
      toCustomerId: bob,
      shares: 20,
    });
    const transfers = await call(
      a,
      'GET',
      `/api/transfers?filter=${encodeURIComponent(JSON.stringify({ customerId: bob }))}`,
    );
    expect(transfers.headers.get('Content-Range')).toBe('transfers 0-0/1');
    const issuances = await call(
      a,
      'GET',
      `/api/issuances?filter=${encodeURIComponent(JSON.stringify({ shareClassId: common.id }))}`,
    );
    expect(await jsonOf<Json[]>(issuances)).toHaveLength(1);
  });

  it('never passes authorized, even with 30 concurrent issuances', async () => {
    const scarce = await shareClass(a, { authorized: 100 });
    const holders = await Promise.all(Array.from({ length: 3 }, () => holder(a)));
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        issue(a, { shareClassId: scarce.id, customerId: holders[i % 3], shares: 10 }),
      ),
    );
    const statuses = answers.map((res) => res.status);
    const granted = statuses.filter((status) => status === 201).length;
    expect(statuses.filter((status) => status !== 201).every((status) => status === 409)).toBe(
      true,
    );
    expect(granted).toBeGreaterThan(0);
    const read = await created(await call(a, 'GET', `/api/share-classes/${scarce.id}`), 200);
    expect(read.issued).toBe(granted * 10);
    expect(read.issued).toBeLessThanOrEqual(100);
    const events = await h.store.readStream(`CapTable-${a.companyId}`);
    const written = events
      .filter((event) => event.type === 'SharesIssued')
      .map((event) => event.data as { shareClassId: string; shares: number })
      .filter((data) => data.shareClassId === scarce.id)
      .reduce((sum, data) => sum + data.shares, 0);
    expect(written).toBe(granted * 10);
  });
});

describe('the cap table as of a date', () => {
  it('replays issuances and transfers up to the moment, with % owned and per class', async () => {
    const company = await h.verifiedCompany();
    const common = await shareClass(company, { name: 'Common' });
    const preferred = await shareClass(company, {
      name: 'Seed Preferred',
      kind: 'preferred',
      seniority: 1,
    });
    const alice = await holder(company, 'Alice');
    const bob = await holder(company, 'Bob');
    const ok = async (res: Response) => expect((await created(res)).id).toBeTruthy();
    await ok(
      await issue(company, {
        shareClassId: common.id,
        customerId: alice,
        shares: 1000,
        date: '2024-01-10',
      }),
    );
    await ok(
      await call(company, 'POST', '/api/transfers', {
        shareClassId: common.id,
        fromCustomerId: alice,
        toCustomerId: bob,
        shares: 250,
        date: '2024-02-10',
        reason: 'Secondary sale',
      }),
    );
    await ok(
      await issue(company, {
        shareClassId: preferred.id,
        customerId: bob,
        shares: 500,
        date: '2024-03-10T12:00:00Z',
      }),
    );

    const before = await capTable(company, '?asOf=2024-01-01');
    expect(before.holders).toEqual([]);
    expect(before.totals).toMatchObject({ issued: 0, holders: 0 });

    const afterIssuance = await capTable(company, '?asOf=2024-01-15T00:00:00Z');
    expect(afterIssuance.holders).toEqual([
      expect.objectContaining({ customerId: alice, shares: 1000, percentOwned: 100 }),
    ]);

    const afterTransfer = await capTable(company, '?asOf=2024-02-15');
    expect(afterTransfer.holders.map((x) => [x.customerId, x.shares, x.percentOwned])).toEqual([
      [alice, 750, 75],
      [bob, 250, 25],
    ]);
    expect(afterTransfer.totals).toMatchObject({ issued: 1000, holders: 2 });

    const now = await capTable(company);
    expect(now.totals).toMatchObject({ issued: 1500, holders: 2, authorized: 2_000_000 });
    const bobNow = now.holders.find((x) => x.customerId === bob);
    expect(bobNow).toMatchObject({
      customerId: bob,
      name: expect.stringContaining('Bob'),
      shares: 750,
      percentOwned: 50,
    });
    expect(bobNow?.byClass).toEqual([
      expect.objectContaining({ shareClassId: preferred.id, shares: 500, percentOfClass: 100 }),
      expect.objectContaining({ shareClassId: common.id, shares: 250, percentOfClass: 25 }),
    ]);
    expect(now.shareClasses.map((c) => [c.name, c.issued])).toEqual([
      ['Seed Preferred', 500],
      ['Common', 1000],
    ]);
    const aliceNow = await created(await call(company, 'GET', `/api/customers/${alice}`), 200);
    expect(aliceNow).toMatchObject({ tokenBalance: 750, percentageOwned: 50 });
    const edited = await call(company, 'PUT', `/api/customers/${alice}`, {
      ...aliceNow,
      nickname: 'Al',
      tokenBalance: 5,
      percentageOwned: 99,
    });
    expect(await created(edited, 200)).toMatchObject({
      nickname: 'Al',
      tokenBalance: 750,
      percentageOwned: 50,
    });
    const stored = await h.store.readStream(`Customer-${alice}`);
    expect(stored.at(-1)?.type).toBe('CustomerUpdated');
    expect(JSON.stringify(stored.at(-1)?.data)).not.toMatch(
      /"tokenBalance":5|"percentageOwned":99/,
    );
    const listed = await jsonOf<Json[]>(await call(company, 'GET', '/api/customers'));
    expect(listed.find((row) => row.id === bob)).toMatchObject({
      tokenBalance: 750,
      percentageOwned: 50,
    });
    const history = await created(
      await call(company, 'GET', `/api/customers/${alice}/history`),
      200,
    );
    const holdings = (history.entries as Json[]).filter((entry) =>
      String(entry.type).startsWith('Shares'),
    );
    expect(holdings.map((entry) => [entry.type, entry.reason, entry.changes])).toEqual([
      ['SharesIssued', 'Founder grant', [{ field: 'tokenBalance', before: 0, after: 1000 }]],
      [
        'SharesTransferred',
        'Secondary sale',
        [{ field: 'tokenBalance', before: 1000, after: 750 }],
      ],
    ]);
    expect(holdings[0]).toMatchObject({
      at: '2024-01-10T00:00:00.000Z',
      actor: { id: company.userId },
    });
    const page = await call(company, 'GET', '/api/cap-table?range=[1,1]');
    expect(page.headers.get('Content-Range')).toBe('holders 1-1/2');
    expect(
      (await capTable(company, '?asOf=2024-02-15&sort=["shares","ASC"]&range=[0,0]')).holders[0]
        ?.customerId,
    ).toBe(bob);
    expect(await fieldsOf(await call(company, 'GET', '/api/cap-table?asOf=soon'))).toHaveProperty(
      'asOf',
    );

    const csv = await call(company, 'GET', '/api/cap-table/export.csv?asOf=2024-02-15');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = (await csv.text()).trim().split('\n');
    expect(lines[0]).toBe('customerId,name,email,shares,percentOwned,Common');
    expect(
      lines.slice(1).map((line) => line.split(',').filter((_, i) => i !== 1 && i !== 2)),
    ).toEqual([
      [alice, '750', '75', '750'],
      [bob, '250', '25', '250'],
    ]);
  });
});
