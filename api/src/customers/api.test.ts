import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../http';
import { errorOf, jsonOf } from '../http/testing/responses';
import { createCustomerRoutes } from './api';
import type { CustomerRecord } from './customerView';
import type { HistoryEntry } from './history';
import type { PushNotification } from './pushNotifications';
import {
  type Company,
  type CustomersHarness,
  startCustomersHarness,
} from './testing/customersHarness';

let h: CustomersHarness;
let company: Company;
beforeAll(async () => {
  h = await startCustomersHarness();
  company = await h.verifiedCompany();
});
afterAll(() => h.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  h.call('GET', path, { token: company.token, headers });
const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  h.call(method, path, { token: company.token, body, headers });
const listQuery = (filter: object, sort = ['name', 'ASC'], range = [0, 24]) =>
  `/api/customers?sort=${encodeURIComponent(JSON.stringify(sort))}&range=${encodeURIComponent(JSON.stringify(range))}&filter=${encodeURIComponent(JSON.stringify(filter))}`;
const list = async (filter: object, sort?: string[], range?: number[]) => {
  const res = await get(listQuery(filter, sort, range));
  expect(res.status).toBe(200);
  return { rows: await jsonOf<CustomerRecord[]>(res), range: res.headers.get('Content-Range') };
};

describe('adding a customer', () => {
  it('answers the record with an ETag, and the list shows it at once', async () => {
    const res = await send('POST', '/api/customers', {
      name: 'Ada',
      lastName: 'Lovelace',
      email: ' Ada@Engines.test ',
      phone: '+44 20 7946 0000',
      tags: ['vip', 'vip', 'board'],
      walletAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      tokenBalance: 1500,
    });
    expect(res.status).toBe(201);
    const ada = await jsonOf<CustomerRecord & { nextInvestorStatuses: unknown[] }>(res);
    expect(ada).toMatchObject({
      name: 'Ada',
      email: 'ada@engines.test',
      tags: ['vip', 'board'],
      starred: false,
      leadStatus: 'Cold',
      investorStatus: 'Not Registered',
      tokenBalance: 1500,
      tokenPrice: null,
      version: 0,
    });
    expect(ada.nextInvestorStatuses).toContainEqual({
      status: 'Registered with the product',
      kind: 'forward',
      reasonRequired: false,
    });
    expect(res.headers.get('ETag')).toBe('"0"');
    const { rows, range } = await list({});
    expect(rows.map((row) => row.email)).toContain('ada@engines.test');
    expect(range).toBe(`customers 0-${rows.length - 1}/${rows.length}`);
  });

  it('refuses an email the company already has, with the seed message, and adds nothing', async () => {
    const before = await h.settledHead();
    const res = await send('POST', '/api/customers', { email: 'ADA@engines.test', name: 'Copy' });
    expect(res.status).toBe(409);
    const error = await errorOf(res);
    expect(error.message).toBe('Customer may already exists - check email');
    expect(error.fields).toEqual({ email: 'Customer may already exists - check email' });
    expect(await h.settledHead()).toBe(before);
  });

  it('takes a leap day as a birthday', async () => {
    const res = await send('POST', '/api/customers', {
      email: 'leap@x.test',
      birthday: '2024-02-29',
    });
    expect(res.status).toBe(201);
    expect((await jsonOf<CustomerRecord>(res)).birthday).toBe('2024-02-29');
  });

  it('lets only one of many concurrent adds with one email through', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        send('POST', '/api/customers', { email: 'race@x.test', name: `Racer ${n}` }),
      ),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect((await list({ q: 'race@x.test' })).rows).toHaveLength(1);
  });

  it.each([
    [{ name: 'No email' }, 'email', 'Email is required'],
    [{ email: 'not-an-email' }, 'email', 'Please enter a valid email'],
    [
      { email: 'w@x.test', walletAddress: '0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
      'walletAddress',
      'The address checksum does not match: check its upper and lower case letters',
    ],
    [
      { email: 'w@x.test', walletAddress: '0x12' },
      'walletAddress',
      'Enter 0x followed by 40 hexadecimal digits',
    ],
    [{ email: 'w@x.test', leadStatus: 'Lukewarm' }, 'leadStatus', undefined],
    [{ email: 'w@x.test', percentageOwned: 101 }, 'percentageOwned', 'Must be 100 or less'],
    [{ email: 'w@x.test', birthday: '10/12/1815' }, 'birthday', 'Use the date format YYYY-MM-DD'],
    [{ email: 'w@x.test', birthday: '2023-02-30' }, 'birthday', 'No such date in the calendar'],
    [{ email: 'w@x.test', birthday: '2023-02-29' }, 'birthday', 'No such date in the calendar'],
    [{ email: 'w@x.test', birthday: '2023-13-01' }, 'birthday', 'No such date in the calendar'],
    [
      { email: 'w@x.test', name: 'Ada \ud800' },
      'name',
      'Holds a broken character (a lone UTF-16 surrogate)',
    ],
    [
      { email: 'w@x.test', tags: ['ok', 'x\udc00'] },
      'tags.1',
      'Holds a broken character (a lone UTF-16 surrogate)',
    ],
    [{ email: 'w@x.test', name: 'a\u0000b' }, 'name', 'Use printable characters only'],
    [{ email: 'w@x.test', companyId: 'someone-else' }, 'companyId', 'Unknown field'],
  ])('refuses %j, naming %s', async (body, field, message) => {
    const before = await h.settledHead();
    const res = await send('POST', '/api/customers', body);
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.fields).toHaveProperty([field]);
    if (message) expect(error.fields?.[field]).toBe(message);
    expect(await h.settledHead()).toBe(before);
  });
});

describe('the list', () => {
  beforeAll(async () => {
    for (const [name, email, starred] of [
      ['Grace', 'grace@navy.test', true],
      ['Linus', 'linus@kernel.test', false],
      ['Margaret', 'margaret@apollo.test', true],
    ] as const) {
      await h.addCustomer(company.token, { name, email, starred, company: 'Pioneers Ltd' });
    }
  });

  it('sorts, pages and counts as react-admin asks', async () => {
    const all = await list({}, ['name', 'DESC'], [0, 99]);
    const total = all.rows.length;
    const page = await list({}, ['name', 'DESC'], [1, 2]);
    expect(page.rows.map((row) => row.name)).toEqual(all.rows.slice(1, 3).map((row) => row.name));
    expect(page.range).toBe(`customers 1-2/${total}`);
    const past = await list({}, ['name', 'DESC'], [500, 524]);
    expect(past.rows).toEqual([]);
    expect(past.range).toBe(`customers */${total}`);
  });

  it('answers a first page of any size and sort the same, request after request', async () => {
    // The first pages' statement is prepared once per connection; PostgreSQL switches it to a
    // cached plan after five runs, which must answer as the fresh ones did.
    for (let index = 0; index < 6; index += 1)
      await h.addCustomer(company.token, { name: `Page${index}`, email: `page${index}@list.test` });
    for (const sort of [
      ['name', 'ASC'],
      ['createdAt', 'DESC'],
    ]) {
      const all = await list({}, sort, [0, 999]);
      const total = all.rows.length;
      for (const size of [5, 10, 25, 7]) {
        for (let repeat = 0; repeat < 8; repeat += 1) {
          const page = await list({}, sort, [0, size - 1]);
          expect(page.rows).toEqual(all.rows.slice(0, size));
          expect(page.range).toBe(`customers 0-${Math.min(size, total) - 1}/${total}`);
        }
      }
    }
  });

  it('filters by search text, star, status and ids', async () => {
    expect((await list({ q: 'pioneers' })).rows.map((row) => row.name)).toEqual([
      'Grace',
      'Linus',
      'Margaret',
    ]);
    expect((await list({ q: 'NAVY' })).rows.map((row) => row.name)).toEqual(['Grace']);
    const starred = await list({ starred: true });
    expect(starred.rows.map((row) => row.name)).toEqual(['Grace', 'Margaret']);
    expect(starred.range).toBe('customers 0-1/2');
    expect((await list({ investorStatus: 'KYC Complete' })).rows).toEqual([]);
    const ids = (await list({ q: 'pioneers' })).rows.map((row) => row.id);
    const many = await get(
      `/api/customers?filter=${encodeURIComponent(JSON.stringify({ id: ids.slice(0, 2) }))}`,
    );
    expect((await jsonOf<CustomerRecord[]>(many)).map((row) => row.id).sort()).toEqual(
      ids.slice(0, 2).sort(),
    );
  });

  it('shows each customer as GET /api/customers/:id does, first page, search and deep page', async () => {
    await h.addCustomer(company.token, {
      name: 'Augusta',
      lastName: 'Byronesque',
      email: 'augusta@engine.test',
      tags: ['vip', 'early'],
      tokenPrice: 0.35,
      tokenBalance: 1200.5,
      percentageOwned: 1.25,
    });
    const pages = [
      await list({}),
      await list({ q: 'byronesque' }),
      await list({}, ['name', 'ASC'], [2, 3]),
    ];
    for (const { rows } of pages) {
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        const { nextInvestorStatuses: _next, ...one } = await jsonOf<Record<string, unknown>>(
          await get(`/api/customers/${row.id}`),
        );
        expect(row).toEqual(one);
      }
    }
    expect((await list({ q: 'byronesque' })).rows[0]).toMatchObject({
      tags: ['vip', 'early'],
      tokenPrice: 0.35,
    });
  });

  it('exposes Content-Range to browsers', async () => {
    const res = await get(listQuery({}), { Origin: 'http://localhost:5173' });
    expect(res.headers.get('Access-Control-Expose-Headers')).toContain('Content-Range');
  });

  it.each([
    ['an unknown sort field', '/api/customers?sort=["password","ASC"]'],
    ['a backwards range', '/api/customers?range=[10,2]'],
    ['a range of more than 1,000 rows', '/api/customers?range=[0,5000]'],
    ['an unknown filter', '/api/customers?filter={"companyId":"x"}'],
    ['broken JSON', '/api/customers?filter={'],
    ['an unknown parameter', '/api/customers?drop=table'],
    ['an unknown status', '/api/customers?filter={"investorStatus":"Rich"}'],
  ])('refuses %s with 400', async (_, path) => {
    const res = await get(path);
    expect(res.status).toBe(400);
    await errorOf(res);
  });
});

describe('editing', () => {
  let id: string;
  beforeAll(async () => {
    id = (await h.addCustomer(company.token, { name: 'Edsger', email: 'edsger@x.test' })).id;
  });

  it('saves with the current If-Match, refuses a stale one with 412, and the list shows the change', async () => {
    const loaded = await get(`/api/customers/${id}`);
    const record = await jsonOf<CustomerRecord>(loaded);
    const etag = loaded.headers.get('ETag') ?? '';
    const saved = await send(
      'PUT',
      `/api/customers/${id}`,
      { ...record, jobTitle: 'Professor' },
      {
        'If-Match': etag,
      },
    );
    expect(saved.status).toBe(200);
    expect(await jsonOf(saved)).toMatchObject({ jobTitle: 'Professor', version: 1 });
    expect((await list({ q: 'edsger' })).rows[0]?.jobTitle).toBe('Professor');

    const stale = await send(
      'PUT',
      `/api/customers/${id}`,
      { ...record, jobTitle: 'Dean' },
      {
        'If-Match': etag,
      },
    );
    expect(stale.status).toBe(412);
    expect((await jsonOf<CustomerRecord>(await get(`/api/customers/${id}`))).jobTitle).toBe(
      'Professor',
    );
  });

  it('moves the email: the old one is free again, the new one is taken', async () => {
    const moved = await send('PUT', `/api/customers/${id}`, { email: 'ewd@x.test' });
    expect(moved.status).toBe(200);
    const taken = await send('POST', '/api/customers', { email: 'ewd@x.test' });
    expect(taken.status).toBe(409);
    await h.addCustomer(company.token, { email: 'edsger@x.test', name: 'Another Edsger' });
    const clash = await send('PUT', `/api/customers/${id}`, { email: 'edsger@x.test' });
    expect(clash.status).toBe(409);
    expect((await jsonOf<CustomerRecord>(await get(`/api/customers/${id}`))).email).toBe(
      'ewd@x.test',
    );
  });

  it('refuses an investor status change through an edit', async () => {
    const res = await send('PUT', `/api/customers/${id}`, { investorStatus: 'Complete' });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields).toHaveProperty(['investorStatus']);
  });

  it('stars, unstars and toggles, singly and in bulk', async () => {
    const star = await send('POST', `/api/customers/${id}/star`);
    expect(await jsonOf(star)).toMatchObject({ starred: true });
    const toggled = await send('POST', `/api/customers/${id}/toggle-star`);
    expect(await jsonOf(toggled)).toMatchObject({ starred: false });
    const other = (await list({ q: 'another edsger' })).rows[0]?.id ?? '';
    const bulk = await send('POST', '/api/customers/star', { ids: [id, other] });
    expect(await jsonOf(bulk)).toMatchObject({
      results: [
        { id, status: 'done' },
        { id: other, status: 'done' },
      ],
    });
    expect((await list({ q: 'edsger', starred: true })).rows).toHaveLength(2);
    await send('POST', '/api/customers/unstar', { ids: [id, other] });
    expect((await list({ q: 'edsger', starred: true })).rows).toHaveLength(0);
    const unstar = await send('POST', `/api/customers/${id}/unstar`);
    expect(unstar.status).toBe(200);
  });

  it('changes lead status and sends a push notification', async () => {
    const lead = await send('POST', `/api/customers/${id}/lead-status`, { leadStatus: 'Hot' });
    expect(await jsonOf(lead)).toMatchObject({ leadStatus: 'Hot' });
    expect((await list({ leadStatus: 'Hot' })).rows.map((row) => row.id)).toEqual([id]);
    const push = await send('POST', `/api/customers/${id}/notifications`, {
      title: 'Round open',
      message: 'Series A opens Monday',
    });
    expect(push.status).toBe(201);
    expect(await jsonOf(push)).toMatchObject({ customerId: id, title: 'Round open' });
  });

  it('hands a stored push notification to the delivery port, and the timeline shows it', async () => {
    const delivered: PushNotification[] = [];
    const app = buildApp(h.deps, [
      () =>
        createCustomerRoutes({
          deliver: async (notification) => void delivered.push(notification),
        }),
    ]);
    const res = await app.request(`/api/customers/${id}/notifications`, {
      method: 'POST',
      body: JSON.stringify({ title: 'Tokens sent', message: 'Check your wallet' }),
      headers: { Authorization: `Bearer ${company.token}`, 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(201);
    expect(delivered).toEqual([
      {
        notificationId: (await jsonOf<{ notificationId: string }>(res)).notificationId,
        companyId: company.companyId,
        customerId: id,
        title: 'Tokens sent',
        message: 'Check your wallet',
      },
    ]);
    const history = await jsonOf<{ entries: HistoryEntry[] }>(
      await get(`/api/customers/${id}/history`),
    );
    expect(history.entries.at(-1)).toMatchObject({
      type: 'PushNotificationSent',
      details: { title: 'Tokens sent', message: 'Check your wallet' },
      changes: [],
    });
  });

  it('updates several at once, refusing a bulk email change', async () => {
    const other = (await list({ q: 'another edsger' })).rows[0]?.id ?? '';
    const res = await send('POST', '/api/customers/bulk-update', {
      ids: [id, other, crypto.randomUUID()],
      changes: { company: 'Eindhoven', leadStatus: 'Warm' },
    });
    expect(res.status).toBe(200);
    expect(
      (await jsonOf<{ results: { status: string }[] }>(res)).results.map((r) => r.status),
    ).toEqual(['done', 'done', 'not_found']);
    expect((await list({ q: 'eindhoven' })).rows).toHaveLength(2);
    const email = await send('POST', '/api/customers/bulk-update', {
      ids: [id],
      changes: { email: 'same@x.test' },
    });
    expect(email.status).toBe(400);
  });
});

describe('the investor-status workflow over HTTP', () => {
  let id: string;
  beforeAll(async () => {
    id = (await h.addCustomer(company.token, { name: 'Barbara', email: 'barbara@x.test' })).id;
  });
  const move = (status: string, extra: object = {}) =>
    send('POST', `/api/customers/${id}/investor-status`, { status, ...extra });

  it('goes forward, refuses a jump with 409 naming both, needs a reason to go back', async () => {
    expect((await move('Registered with the product')).status).toBe(200);
    const jump = await move('Complete');
    expect(jump.status).toBe(409);
    expect((await errorOf(jump)).message).toBe(
      "The investor status cannot change from 'Registered with the product' to 'Complete'",
    );
    expect((await move('KYC Complete')).status).toBe(200);
    const back = await move('Registered with the product');
    expect(back.status).toBe(400);
    expect((await errorOf(back)).fields).toHaveProperty(['reason']);
    const reversed = await move('Registered with the product', {
      reason: 'Passport expired',
      evidence: 'doc-118',
    });
    expect(reversed.status).toBe(200);
    expect(await jsonOf(reversed)).toMatchObject({ investorStatus: 'Registered with the product' });
    expect(
      (await list({ investorStatus: 'Registered with the product' })).rows.map((row) => row.id),
    ).toEqual([id]);
  });

  it('tells the full story in the history: who, when, why, before → after', async () => {
    const res = await get(`/api/customers/${id}/history`);
    expect(res.status).toBe(200);
    const { entries } = await jsonOf<{ entries: HistoryEntry[] }>(res);
    expect(entries.map((entry) => entry.type)).toEqual([
      'CustomerAdded',
      'InvestorStatusChanged',
      'InvestorStatusChanged',
      'InvestorStatusChanged',
    ]);
    expect(entries[3]).toMatchObject({
      version: 3,
      actor: { id: company.userId, email: company.email },
      reason: 'Passport expired',
      evidence: 'doc-118',
      changes: [
        { field: 'investorStatus', before: 'KYC Complete', after: 'Registered with the product' },
      ],
    });
    expect(entries[0]?.changes).toContainEqual({
      field: 'email',
      before: null,
      after: 'barbara@x.test',
    });
  });

  it('answers the customer as they were at a moment, by replaying the stream', async () => {
    const created = await h.addCustomer(company.token, { name: 'Kathleen', email: 'k@x.test' });
    const createdAt = Date.parse(created.createdAt);
    h.advanceClock(60_000);
    await send('PUT', `/api/customers/${created.id}`, { jobTitle: 'Architect' });
    h.advanceClock(60_000);
    await send('POST', `/api/customers/${created.id}/investor-status`, {
      status: 'Registered with the product',
    });
    h.advanceClock(60_000);
    await send('DELETE', `/api/customers/${created.id}`);
    const asOf = (ms: number) =>
      get(`/api/customers/${created.id}?asOf=${new Date(ms).toISOString()}`);

    expect((await asOf(createdAt - 1)).status).toBe(404);
    expect(await jsonOf(await asOf(createdAt + 30_000))).toMatchObject({
      jobTitle: '',
      investorStatus: 'Not Registered',
      version: 0,
      removed: false,
    });
    expect(await jsonOf(await asOf(createdAt + 90_000))).toMatchObject({
      jobTitle: 'Architect',
      investorStatus: 'Not Registered',
      version: 1,
    });
    expect(await jsonOf(await asOf(createdAt + 150_000))).toMatchObject({
      investorStatus: 'Registered with the product',
      removed: false,
    });
    expect(await jsonOf(await asOf(createdAt + 10 * 60_000))).toMatchObject({ removed: true });
    expect((await get(`/api/customers/${created.id}`)).status).toBe(404);
    expect((await get(`/api/customers/${created.id}?asOf=yesterday`)).status).toBe(400);
  });

  it('answers the same from checkpoints as from the first event, at every moment', async () => {
    const created = await h.addCustomer(company.token, { email: 'long@x.test' });
    const toggles = 249;
    for (let toggle = 1; toggle <= toggles; toggle += 1) {
      h.advanceClock(1_000);
      const res = await send('POST', `/api/customers/${created.id}/toggle-star`);
      expect(res.status).toBe(200);
    }
    const createdAt = Date.parse(created.createdAt);
    // After k toggles the customer is starred when k is odd, at version k.
    const moments = [50, 99, 100, 150, 199, 220, toggles].map((k) => ({
      k,
      at: new Date(createdAt + k * 1_000 + 500).toISOString(),
    }));
    const asOf = async (at: string) =>
      jsonOf<{ starred: boolean; version: number }>(
        await get(`/api/customers/${created.id}?asOf=${at}`),
      );
    const checkpoints = async () =>
      (
        await h.pool.query<{ revision: string }>(
          'SELECT revision FROM customer_snapshots WHERE customer_id = $1 ORDER BY revision',
          [created.id],
        )
      ).rows.map((row) => Number(row.revision));

    expect(await checkpoints()).toEqual([]);
    for (const { k, at } of moments) {
      expect(await asOf(at)).toMatchObject({ starred: k % 2 === 1, version: k });
    }
    expect(await checkpoints()).toEqual([99, 199]);
    for (const { k, at } of moments.reverse()) {
      expect(await asOf(at)).toMatchObject({ starred: k % 2 === 1, version: k });
    }
    const other = await h.verifiedCompany();
    const foreign = await h.call('GET', `/api/customers/${created.id}?asOf=${moments[0]?.at}`, {
      token: other.token,
    });
    expect(foreign.status).toBe(404);
  }, 60_000);
});

describe('removing', () => {
  it('removes one, answers the record, frees the email; then it is not found', async () => {
    const gone = await h.addCustomer(company.token, { name: 'Alan', email: 'alan@x.test' });
    const res = await h.app.request(`/api/customers/${gone.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${company.token}`, 'Content-Type': 'text/plain' },
    });
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toMatchObject({ id: gone.id, email: 'alan@x.test' });
    expect((await get(`/api/customers/${gone.id}`)).status).toBe(404);
    expect((await send('DELETE', `/api/customers/${gone.id}`)).status).toBe(404);
    expect((await list({ q: 'alan@x.test' })).rows).toEqual([]);
    await h.addCustomer(company.token, { name: 'Alan again', email: 'alan@x.test' });
  });

  it('removes several, reporting the ones it did not find', async () => {
    const a = await h.addCustomer(company.token, { email: 'bulk-a@x.test' });
    const b = await h.addCustomer(company.token, { email: 'bulk-b@x.test' });
    const missing = crypto.randomUUID();
    const res = await send('POST', '/api/customers/bulk-delete', {
      ids: [a.id, b.id, missing],
      reason: 'test data',
    });
    expect(await jsonOf(res)).toMatchObject({
      results: [
        { id: a.id, status: 'done' },
        { id: b.id, status: 'done' },
        { id: missing, status: 'not_found' },
      ],
    });
    expect((await list({ q: 'bulk-' })).rows).toEqual([]);
  });
});
