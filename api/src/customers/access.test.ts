import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, jsonOf } from '../http/testing/responses';
import type { CustomerRecord } from './customerView';
import {
  type Company,
  type CustomersHarness,
  startCustomersHarness,
} from './testing/customersHarness';

// Who may do what: another company's customers do not exist for you, an unverified company is
// refused, a compliance reviewer reads everything and changes nothing.

let h: CustomersHarness;
let owner: Company;
let other: Company;
let theirs: CustomerRecord;
let ours: CustomerRecord;
beforeAll(async () => {
  h = await startCustomersHarness();
  owner = await h.verifiedCompany();
  other = await h.verifiedCompany();
  theirs = await h.addCustomer(other.token, { name: 'Theirs', email: 'theirs@x.test' });
  ours = await h.addCustomer(owner.token, { name: 'Ours', email: 'ours@x.test' });
});
afterAll(() => h.close());

const csv = 'email,name\nnew@x.test,New\n';

/** Every customer route that names one customer, with a body it would accept. */
const routesOnOne = (id: string): [string, string, unknown?][] => [
  ['GET', `/api/customers/${id}`],
  ['GET', `/api/customers/${id}?asOf=2030-01-01T00:00:00Z`],
  ['GET', `/api/customers/${id}/history`],
  ['PUT', `/api/customers/${id}`, { name: 'Taken over' }],
  ['DELETE', `/api/customers/${id}`],
  ['POST', `/api/customers/${id}/star`],
  ['POST', `/api/customers/${id}/unstar`],
  ['POST', `/api/customers/${id}/toggle-star`],
  ['POST', `/api/customers/${id}/investor-status`, { status: 'Registered with the product' }],
  ['POST', `/api/customers/${id}/lead-status`, { leadStatus: 'Hot' }],
  ['POST', `/api/customers/${id}/notifications`, { title: 'Hi', message: 'Hello' }],
  ['POST', '/api/contacts-app/update-contact', { contact: { id, name: 'Taken over' } }],
  ['POST', '/api/contacts-app/remove-contact', { contactId: id }],
  ['POST', '/api/contacts-app/toggle-starred-contact', { contactId: id }],
];

describe("another company's customer", () => {
  it.each(routesOnOne('THEIRS'))(
    '%s %s answers 404 and changes nothing',
    async (method, path, body) => {
      const before = await h.settledHead();
      const sent = body && JSON.parse(JSON.stringify(body).replaceAll('THEIRS', theirs.id));
      const res = await h.call(method, path.replace('THEIRS', theirs.id), {
        token: owner.token,
        body: sent,
      });
      expect(res.status).toBe(404);
      expect((await errorOf(res)).message).toBe('Customer not found');
      expect(await h.settledHead()).toBe(before);
    },
  );

  it('answers 404 with a stale If-Match too, not 412', async () => {
    const res = await h.call('PUT', `/api/customers/${theirs.id}`, {
      token: owner.token,
      body: { name: 'x' },
      headers: { 'If-Match': '"7"' },
    });
    expect(res.status).toBe(404);
    const star = await h.call('POST', `/api/customers/${theirs.id}/star`, {
      token: owner.token,
      headers: { 'If-Match': '"7"' },
    });
    expect(star.status).toBe(404);
  });

  it.each([
    ['/api/customers/star', { ids: ['THEIRS'] }],
    ['/api/customers/unstar', { ids: ['THEIRS'] }],
    ['/api/customers/bulk-delete', { ids: ['THEIRS'] }],
    ['/api/customers/bulk-update', { ids: ['THEIRS'], changes: { name: 'x' } }],
    ['/api/contacts-app/remove-contacts', { contactIds: ['THEIRS'] }],
    ['/api/contacts-app/set-contacts-starred', { contactIds: ['THEIRS'] }],
    ['/api/contacts-app/set-contacts-unstarred', { contactIds: ['THEIRS'] }],
  ])('is untouched by the bulk call %s', async (path, body) => {
    const before = await h.settledHead();
    const sent = JSON.parse(JSON.stringify(body).replace('THEIRS', theirs.id));
    const res = await h.call('POST', path, { token: owner.token, body: sent });
    expect(res.status).toBeLessThan(500);
    expect(await h.settledHead()).toBe(before);
  });

  it('never shows up in lists, searches, getMany, exports or the contacts call', async () => {
    const filter = encodeURIComponent(JSON.stringify({ id: [theirs.id, ours.id] }));
    const many = await jsonOf<CustomerRecord[]>(
      await h.call('GET', `/api/customers?filter=${filter}`, { token: owner.token }),
    );
    expect(many.map((row) => row.id)).toEqual([ours.id]);
    const search = encodeURIComponent(JSON.stringify({ q: 'theirs' }));
    const found = await h.call('GET', `/api/customers?filter=${search}`, { token: owner.token });
    expect(await jsonOf(found)).toEqual([]);
    expect(found.headers.get('Content-Range')).toBe('customers */0');
    const exported = await h.call('GET', '/api/customers/export.csv', { token: owner.token });
    expect(await exported.text()).not.toContain('theirs@x.test');
    const contacts = await h.call('GET', '/api/contacts-app/contacts', { token: owner.token });
    expect((await jsonOf<CustomerRecord[]>(contacts)).map((row) => row.id)).toEqual([ours.id]);
  });

  it('keeps emails per company: the same email is fine in another company', async () => {
    await h.addCustomer(owner.token, { email: 'theirs@x.test' });
  });
});

describe('an unverified company', () => {
  let pending: Company;
  beforeAll(async () => {
    pending = await h.unverifiedCompany();
  });

  it.each([
    ['GET', '/api/customers'],
    ['POST', '/api/customers', { email: 'a@x.test' }],
    ['GET', '/api/customers/export.csv'],
    ['GET', '/api/contacts-app/contacts'],
    ['POST', '/api/contacts-app/add-contact', { newContact: { email: 'a@x.test' } }],
  ] as [string, string, unknown?][])(
    'is refused on %s %s with the verification message',
    async (method, path, body) => {
      const res = await h.call(method, path, { token: pending.token, body });
      expect(res.status).toBe(403);
      expect((await errorOf(res)).message).toBe('Your company is awaiting verification');
    },
  );
});

describe('a compliance reviewer', () => {
  let reviewer: string;
  beforeAll(async () => {
    reviewer = await h.complianceToken(owner.token);
  });

  it('reads lists, records, histories, as-of views, exports and the contacts calls', async () => {
    for (const path of [
      '/api/customers',
      `/api/customers/${ours.id}`,
      `/api/customers/${ours.id}/history`,
      `/api/customers/${ours.id}?asOf=2030-01-01T00:00:00Z`,
      '/api/customers/export.csv',
      '/api/contacts-app/contacts',
      '/api/contacts-app/user',
    ]) {
      const res = await h.call('GET', path, { token: reviewer });
      expect(res.status, path).toBe(200);
      await res.arrayBuffer();
    }
  });

  it.each([
    ...routesOnOne('OURS').filter(([method]) => method !== 'GET'),
    ['POST', '/api/customers', { email: 'c@x.test' }],
    ['POST', '/api/customers/bulk', { customers: [{ email: 'c@x.test' }] }],
    ['POST', '/api/customers/bulk-update', { ids: ['OURS'], changes: { name: 'x' } }],
    ['POST', '/api/customers/bulk-delete', { ids: ['OURS'] }],
    ['POST', '/api/customers/star', { ids: ['OURS'] }],
    ['POST', '/api/customers/unstar', { ids: ['OURS'] }],
    ['POST', '/api/contacts-app/add-contact', { newContact: { email: 'c@x.test' } }],
    ['POST', '/api/contacts-app/remove-contacts', { contactIds: ['OURS'] }],
    ['POST', '/api/contacts-app/set-contacts-starred', { contactIds: ['OURS'] }],
    ['POST', '/api/contacts-app/set-contacts-unstarred', { contactIds: ['OURS'] }],
  ] as [string, string, unknown?][])(
    'gets 403 on %s %s, and nothing changes',
    async (method, path, body) => {
      const before = await h.settledHead();
      const sent = body && JSON.parse(JSON.stringify(body).replaceAll('OURS', ours.id));
      const res = await h.call(method, path.replace('OURS', ours.id), {
        token: reviewer,
        body: sent,
      });
      expect(res.status).toBe(403);
      await errorOf(res);
      expect(await h.settledHead()).toBe(before);
    },
  );

  it('gets 403 on the CSV import', async () => {
    const res = await h.app.request('/api/customers/import', {
      method: 'POST',
      body: csv,
      headers: { Authorization: `Bearer ${reviewer}`, 'Content-Type': 'text/csv' },
    });
    expect(res.status).toBe(403);
  });

  it('cannot add users; only an admin can', async () => {
    const res = await h.call('POST', '/api/company/users', {
      token: reviewer,
      body: { email: 'x@audit.test', password: 'glacier-Otter-77', role: 'admin' },
    });
    expect(res.status).toBe(403);
  });
});
