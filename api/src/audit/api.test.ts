import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Company,
  type CustomersHarness,
  startCustomersHarness,
} from '../customers/testing/customersHarness';
import { errorOf, jsonOf } from '../http/testing/responses';
import { listParams } from '../transactions/testing/moneyHarness';

interface Entry {
  id: string;
  at: string;
  actorId: string;
  actorName: string | null;
  eventType: string;
  resource: string;
  recordId: string;
  reason: string | null;
  details: Record<string, unknown>;
}

let h: CustomersHarness;
let a: Company;
let b: Company;
let reviewer: string;
let ada: string;
let grace: string;

beforeAll(async () => {
  h = await startCustomersHarness();
  [a, b] = [await h.verifiedCompany(), await h.verifiedCompany()];
  ada = (await h.addCustomer(a.token, { name: 'Ada', lastName: 'Lovelace', email: 'ada@a.test' }))
    .id;
  grace = (await h.addCustomer(a.token, { name: 'Grace', lastName: 'Hopper', email: 'g@a.test' }))
    .id;
  const star = await h.call('POST', `/api/customers/${ada}/star`, { token: a.token });
  expect(star.status).toBeLessThan(300);
  await h.addCustomer(b.token, { name: 'Other', lastName: 'Company', email: 'o@b.test' });
  reviewer = await h.complianceToken(a.token);
});
afterAll(() => h.close());

const list = async (params: Parameters<typeof listParams>[0], token = a.token) => {
  const res = await h.call('GET', `/api/audit${listParams(params)}`, { token });
  expect(res.status).toBe(200);
  return { rows: await jsonOf<Entry[]>(res), range: res.headers.get('Content-Range') };
};
const totalOf = (range: string | null) => Number(range?.split('/')[1]);

describe('GET /api/audit', () => {
  it("lists every event of the caller's company, newest first, who, what and which record", async () => {
    const { rows, range } = await list({});
    expect(totalOf(range)).toBe(rows.length);
    const added = rows.filter((row) => row.eventType === 'CustomerAdded');
    expect(added.map((row) => row.recordId).sort()).toEqual([ada, grace].sort());
    expect(added[0]).toMatchObject({
      actorId: a.userId,
      actorIsOperator: false,
      resource: 'customers',
    });
    // The operator verified the company: screens name the role, in the reader's language.
    const verified = rows.find((row) => row.eventType === 'CompanyVerified');
    expect(verified).toMatchObject({ actorIsOperator: true, actorName: 'Platform operator' });
    expect(rows.map((row) => Number(row.id))).toEqual(
      rows.map((row) => Number(row.id)).sort((x, y) => y - x),
    );
    expect(rows.some((row) => row.recordId === b.companyId)).toBe(false);
    // Registration is in the log, without the password hash.
    const registered = rows.find((row) => row.eventType === 'UserRegistered');
    expect(registered?.details).toBeDefined();
    expect(JSON.stringify(registered?.details)).not.toMatch(/passwordHash|argon|scrypt/i);
  });

  it('filters by actor, event type, record and date range with exact totals', async () => {
    const all = await list({ sort: ['id', 'ASC'] });
    const byType = await list({ filter: { eventType: 'CustomerAdded' } });
    expect(byType.range).toBe('audit 0-1/2');
    const byRecord = await list({ filter: { resource: 'customers', recordId: ada } });
    expect(byRecord.rows.map((row) => row.eventType).sort()).toEqual(
      ['CustomerAdded', 'CustomerStarred'].sort(),
    );
    expect(totalOf(byRecord.range)).toBe(2);
    const byActor = await list({ filter: { actorId: a.userId } });
    expect(totalOf(byActor.range)).toBe(all.rows.filter((r) => r.actorId === a.userId).length);
    const both = await list({ filter: { actorId: a.userId, eventType: ['CustomerStarred'] } });
    expect(both.range).toBe('audit 0-0/1');
    const second = all.rows[1] as Entry;
    const from = await list({ filter: { from: second.at } });
    expect(totalOf(from.range)).toBe(all.rows.filter((r) => r.at >= second.at).length);
    const none = await list({ filter: { from: '2099-01-01' } });
    expect(none.range).toBe('audit */0');
    const past = await list({ filter: { to: '2000-01-01', eventType: 'CustomerAdded' } });
    expect(past.range).toBe('audit */0');
  });

  it('pages through the log: pages join up to the whole list', async () => {
    const all = await list({});
    const pages = [];
    for (let start = 0; start < all.rows.length; start += 2) {
      pages.push(...(await list({ range: [start, start + 1] })).rows);
    }
    expect(pages.map((row) => row.id)).toEqual(all.rows.map((row) => row.id));
  });

  it('shows one entry; another company’s is 404', async () => {
    const { rows } = await list({});
    const first = rows[0] as Entry;
    const one = await h.call('GET', `/api/audit/${first.id}`, { token: a.token });
    expect(await jsonOf<Entry>(one)).toMatchObject({ id: first.id, eventType: first.eventType });
    expect((await h.call('GET', `/api/audit/${first.id}`, { token: b.token })).status).toBe(404);
  });

  it('is for admins and compliance reviewers; others are refused', async () => {
    expect(totalOf((await list({}, reviewer)).range)).toBeGreaterThan(0);
    expect((await h.call('GET', '/api/audit')).status).toBe(401);
    const login = await h.call('POST', '/api/auth', {
      body: { email: 'ops@customers.test', password: 'aurora-Lynx-2025' },
    });
    const operator = (await jsonOf<{ access_token: string }>(login)).access_token;
    const refused = await h.call('GET', '/api/audit', { token: operator });
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).code).toBe('forbidden');
  });

  it.each([
    ['filter', { eventType: 'Nope' }, 'filter.eventType'],
    ['filter', { from: 'yesterday' }, 'filter.from'],
    ['filter', { from: '2026-02-01', to: '2026-01-01' }, 'filter.to'],
    ['filter', { recordId: 'x' }, 'filter.resource'],
    ['filter', { colour: 'red' }, 'filter.colour'],
    ['sort', ['actorId', 'ASC'], 'sort.0'],
    ['range', [5, 1], 'range'],
  ])('refuses a bad %s %j with a 400 naming %s', async (key, value, field) => {
    const res = await h.call(
      'GET',
      `/api/audit?${key}=${encodeURIComponent(JSON.stringify(value))}`,
      {
        token: a.token,
      },
    );
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe('invalid_request');
    expect(Object.keys(error.fields ?? {})).toContain(field);
  });
});

describe('GET /api/audit/export.csv', () => {
  it('streams the filtered log as CSV', async () => {
    const res = await h.call(
      'GET',
      `/api/audit/export.csv${listParams({ filter: { eventType: 'CustomerAdded' } })}`,
      { token: reviewer },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toContain('text/csv');
    const lines = (await res.text()).trim().split('\n');
    expect(lines[0]).toBe(
      'id,at,occurredAt,actorId,actorName,eventType,resource,recordId,reason,eventId,amountCents',
    );
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).every((line) => line.includes('CustomerAdded'))).toBe(true);
  });
});
