import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '../http/testing/responses';
import { type AccountsHarness, registered, startAccountsHarness } from './testing/accountsHarness';

// Bad requests thrown at every state-changing route of this feature: each answers 4xx in the
// one error shape, and the event store's head does not move.

let h: AccountsHarness;
let token: string;
let terminalId: string;
beforeAll(async () => {
  h = await startAccountsHarness();
  token = (await registered(h)).access_token;
  const terminal = await h.call('POST', '/api/terminals', {
    token,
    body: { name: 'Till', deviceId: 'T-1' },
  });
  terminalId = ((await terminal.json()) as { id: string }).id;
});
afterAll(() => h.close());

const routes: [method: string, path: () => string][] = [
  ['POST', () => '/api/auth/register'],
  ['POST', () => '/api/auth'],
  ['POST', () => '/api/auth/user/update'],
  ['POST', () => '/api/auth/password'],
  ['POST', () => '/api/terminals'],
  ['PATCH', () => `/api/terminals/${terminalId}`],
];

const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const settingsWith = (settings: string) =>
  `{"user":{"data":{"settings":${settings},"shortcuts":[]}}}`;

const bodies: [string, string, Record<string, string>?][] = [
  ['broken JSON', '{"email":'],
  ['a JSON null body', 'null'],
  ['an array body', '[{}]'],
  ['a bare number', '7'],
  ['deeply nested arrays', deep(20_000)],
  ['a body over 100 KB', JSON.stringify({ name: 'x'.repeat(120 * 1024) })],
  ['an unknown field', '{"companyId":"someone-else"}'],
  ['wrong types', '{"email":1,"password":true,"name":[],"user":"me"}'],
  ['a form sent as text', 'email=a&password=b', { 'Content-Type': 'text/plain' }],
  [
    'a NUL character',
    '{"name":"a\\u0000b","companyName":"a\\u0000bcd","email":"a\\u0000b@x.test"}',
  ],
];

describe.each(routes)('%s %s', (method, path) => {
  it.each(bodies)('answers %s with a 4xx and appends nothing', async (_, body, headers) => {
    const before = await h.settledHead();
    const res = await h.app.request(path(), {
      method,
      body,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, ...headers },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    await errorOf(res);
    expect(await h.settledHead()).toBe(before);
  });
});

describe('settings a database could choke on', () => {
  it.each([
    ['nested too deep', settingsWith(`${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`)],
    ['holding a NUL character', settingsWith('{"name":"a\\u0000b"}')],
    ['with a NUL character in a key', settingsWith('{"a\\u0000b":1}')],
  ])('are refused when %s', async (_, body) => {
    const before = await h.settledHead();
    const res = await h.app.request('/api/auth/user/update', {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields).toHaveProperty(['user.data.settings']);
    expect(await h.settledHead()).toBe(before);
  });
});

it('refuses a company or terminal name with control characters, naming the field', async () => {
  const register = await h.call('POST', '/api/auth/register', {
    body: {
      companyName: 'Acme\u0000Co',
      companySymbol: 'NUL',
      email: 'nul@x.test',
      password: 'tundra-Falcon-42',
    },
  });
  expect((await errorOf(register)).companyName).toBe('Use printable characters only');
  const terminal = await h.call('POST', '/api/terminals', {
    token,
    body: { name: 'Till\n2', deviceId: 'T-2' },
  });
  expect((await errorOf(terminal)).name).toBe('Use printable characters only');
  const login = await h.call('POST', '/api/auth', {
    body: { email: 'a\u0000b@x.test', password: 'tundra-Falcon-42' },
  });
  expect((await errorOf(login)).email).toBe('Please enter a valid email');
});
