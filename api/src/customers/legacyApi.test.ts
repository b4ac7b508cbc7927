import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, jsonOf } from '../http/testing/responses';
import type { CustomerRecord } from './customerView';
import {
  type Company,
  type CustomersHarness,
  startCustomersHarness,
} from './testing/customersHarness';

// The seed client's contacts-app calls (seed §7) with the shapes it sends, answered by the same
// commands and read model as the REST resource.

let h: CustomersHarness;
let company: Company;
beforeAll(async () => {
  h = await startCustomersHarness();
  company = await h.verifiedCompany();
});
afterAll(() => h.close());

const post = (call: string, body: unknown) =>
  h.call('POST', `/api/contacts-app/${call}`, { token: company.token, body });
const contacts = async (query = '') => {
  const res = await h.call('GET', `/api/contacts-app/contacts${query}`, { token: company.token });
  expect(res.status).toBe(200);
  return jsonOf<CustomerRecord[]>(res);
};

describe('the contacts-app calls', () => {
  let ada: CustomerRecord;
  let bob: CustomerRecord;

  it('add-contact {newContact} adds, and a second one with the email gets the seed message', async () => {
    const res = await post('add-contact', {
      newContact: {
        id: '',
        name: 'Ada',
        email: 'ada@legacy.test',
        investorStatus: 'Not Registered',
      },
    });
    expect(res.status).toBe(200);
    ada = await jsonOf<CustomerRecord>(res);
    expect(ada).toMatchObject({ name: 'Ada', email: 'ada@legacy.test' });
    bob = await jsonOf<CustomerRecord>(
      await post('add-contact', { newContact: { name: 'Bob', email: 'bob@legacy.test' } }),
    );
    const again = await post('add-contact', { newContact: { email: 'ada@legacy.test' } });
    expect(again.status).toBe(409);
    // The UI shows it as 'Error: Customer may already exists - check email'.
    expect((await errorOf(again)).message).toBe('Customer may already exists - check email');
    const invalid = await post('add-contact', { newContact: { email: 'nope' } });
    expect(invalid.status).toBe(400);
    expect((await errorOf(invalid)).fields).toEqual({ email: 'Please enter a valid email' });
  });

  it('GET contacts takes the route params as the filter', async () => {
    expect((await contacts()).map((row) => row.name)).toEqual(['Ada', 'Bob']);
    expect((await contacts('?id=all')).map((row) => row.name)).toEqual(['Ada', 'Bob']);
    expect(await contacts('?id=starred')).toEqual([]);
    expect((await contacts('?id=all&q=bob')).map((row) => row.name)).toEqual(['Bob']);
    expect((await contacts(`?id=${encodeURIComponent('Not Registered')}`)).length).toBe(2);
    const unknown = await h.call('GET', '/api/contacts-app/contacts?id=vip', {
      token: company.token,
    });
    expect(unknown.status).toBe(400);
  });

  it('update-contact {contact} saves the whole contact as sent back', async () => {
    const res = await post('update-contact', { contact: { ...ada, jobTitle: 'Countess' } });
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toMatchObject({ id: ada.id, jobTitle: 'Countess' });
    expect((await contacts())[0]?.jobTitle).toBe('Countess');
    const bad = await post('update-contact', { contact: { ...ada, email: 'broken' } });
    expect(bad.status).toBe(400);
  });

  it('set-contacts-starred / unstarred {contactIds} and toggle-starred-contact {contactId}', async () => {
    const starred = await post('set-contacts-starred', { contactIds: [ada.id, bob.id] });
    expect(await jsonOf(starred)).toEqual([ada.id, bob.id]);
    expect((await contacts('?id=starred')).length).toBe(2);
    const user = await jsonOf<{ starred: string[] }>(
      await h.call('GET', '/api/contacts-app/user', { token: company.token }),
    );
    expect(user).toMatchObject({ id: company.userId, frequentContacts: [], groups: [] });
    expect(user.starred.sort()).toEqual([ada.id, bob.id].sort());
    await post('set-contacts-unstarred', { contactIds: [bob.id] });
    expect((await contacts('?id=starred')).map((row) => row.name)).toEqual(['Ada']);
    const toggled = await post('toggle-starred-contact', { contactId: ada.id });
    expect(await jsonOf(toggled)).toMatchObject({ id: ada.id, starred: false });
    expect(await contacts('?id=starred')).toEqual([]);
  });

  it('remove-contact {contactId} and remove-contacts {contactIds}', async () => {
    const one = await post('remove-contact', { contactId: ada.id });
    expect(await jsonOf(one)).toBe(ada.id);
    expect((await contacts()).map((row) => row.name)).toEqual(['Bob']);
    const again = await post('remove-contact', { contactId: ada.id });
    expect(again.status).toBe(404);
    const carl = await jsonOf<CustomerRecord>(
      await post('add-contact', { newContact: { email: 'carl@legacy.test' } }),
    );
    const many = await post('remove-contacts', { contactIds: [bob.id, carl.id] });
    expect(await jsonOf(many)).toEqual([bob.id, carl.id]);
    expect(await contacts()).toEqual([]);
  });

  it.each([
    ['add-contact', { contact: { email: 'a@x.test' } }],
    ['update-contact', { contact: { name: 'no id' } }],
    ['remove-contact', { contactId: 'not-a-uuid' }],
    ['remove-contacts', { contactIds: [] }],
    ['set-contacts-starred', { contactIds: 'all' }],
    ['toggle-starred-contact', {}],
  ])('%s refuses a body of the wrong shape with 400', async (call, body) => {
    const before = await h.settledHead();
    const res = await post(call, body);
    expect(res.status).toBe(400);
    await errorOf(res);
    expect(await h.settledHead()).toBe(before);
  });
});
