import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { features } from '../app';
import { healthRoutes } from '../health';
import { buildApp } from './buildApp';
import { counterFeature } from './testing/counterFeature';
import { type Harness, startHarness } from './testing/harness';
import { errorOf } from './testing/responses';

// A table of bad requests thrown at real and unknown routes: every one answers 4xx in the one
// error shape and appends nothing.

let h: Harness;
let headBefore: bigint | undefined;

beforeAll(async () => {
  h = await startHarness([
    healthRoutes,
    counterFeature({ crashBeforeAppend: false, stall: undefined }),
  ]);
  // One good command first, so "the head did not move" compares against a real position.
  const seeded = await h.app.request('/api/counters/seed/increment', {
    method: 'POST',
    body: '{"by":1}',
    headers: { Authorization: 'Test c1 u1', 'Content-Type': 'application/json' },
  });
  expect(seeded.status).toBe(201);
  headBefore = await h.settledHead();
  expect(headBefore).toBeDefined();
});
afterAll(() => h.close());

interface BadRequest {
  name: string;
  path: string;
  method?: string;
  body?: string | Uint8Array;
  headers?: Record<string, string>;
  noAuth?: boolean;
}

const json = { 'Content-Type': 'application/json' };
const increment = '/api/counters/fuzz/increment';
const big = JSON.stringify({ by: 1, note: 'x'.repeat(120 * 1024) });

const badBodies: [string, string][] = [
  ['a string where a number belongs', '{"by":"1"}'],
  ['a fraction', '{"by":1.5}'],
  ['null field', '{"by":null}'],
  ['a number too large for JSON', '{"by":1e309}'],
  ['a missing field', '{}'],
  ['an unknown field', '{"by":1,"admin":true}'],
  ['a company id in the body', '{"by":1,"companyId":"someone-else"}'],
  ['a prototype-polluting key', '{"by":1,"__proto__":{"admin":true}}'],
  ['an array body', '[{"by":1}]'],
  ['a bare string body', '"by"'],
  ['a bare number body', '7'],
  ['a JSON null body', 'null'],
  ['deeply nested arrays', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
  ['a nested object where a number belongs', '{"by":{"$gt":0}}'],
  ['broken JSON', '{"by":'],
  ['JSON with a trailing comma', '{"by":1,}'],
  ['an empty JSON body', ''],
  ['a NUL byte', '{"by":1\u0000}'],
];

const table: BadRequest[] = [
  ...badBodies.map(([name, body]) => ({
    name,
    path: increment,
    method: 'POST',
    body,
    headers: json,
  })),
  ...badBodies.map(([name, body]) => ({
    name: `${name} (multi-stream route)`,
    path: '/api/pairs',
    method: 'POST',
    body,
    headers: json,
  })),
  {
    name: 'invalid UTF-8',
    path: increment,
    method: 'POST',
    body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    headers: json,
  },
  { name: 'a body over 100 KB', path: increment, method: 'POST', body: big, headers: json },
  {
    name: 'a body over 100 KB with Content-Length',
    path: increment,
    method: 'POST',
    body: big,
    headers: { ...json, 'Content-Length': String(big.length) },
  },
  {
    name: 'a body over 100 KB to an unknown route',
    path: '/api/upload',
    method: 'POST',
    body: big,
    headers: json,
  },
  {
    name: 'text/plain',
    path: increment,
    method: 'POST',
    body: '{"by":1}',
    headers: { 'Content-Type': 'text/plain' },
  },
  {
    name: 'a form post',
    path: increment,
    method: 'POST',
    body: 'by=1',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  },
  {
    name: 'XML',
    path: increment,
    method: 'POST',
    body: '<by>1</by>',
    headers: { 'Content-Type': 'application/xml' },
  },
  {
    name: 'no token',
    path: increment,
    method: 'POST',
    body: '{"by":1}',
    headers: json,
    noAuth: true,
  },
  {
    name: 'a malformed If-Match',
    path: increment,
    method: 'POST',
    body: '{"by":1}',
    headers: { ...json, 'If-Match': 'yesterday' },
  },
  {
    name: 'a stale If-Match',
    path: increment,
    method: 'POST',
    body: '{"by":1}',
    headers: { ...json, 'If-Match': '"999"' },
  },
  {
    name: 'an overlong Idempotency-Key',
    path: increment,
    method: 'POST',
    body: '{"by":1}',
    headers: { ...json, 'Idempotency-Key': 'k'.repeat(256) },
  },
  {
    name: 'a bad path parameter',
    path: '/api/counters/NOT..valid/increment',
    method: 'POST',
    body: '{"by":1}',
    headers: json,
  },
  {
    name: 'an overlong path parameter',
    path: `/api/counters/${'a'.repeat(500)}/increment`,
    method: 'POST',
    body: '{"by":1}',
    headers: json,
  },
  {
    name: 'an encoded slash in the path',
    path: '/api/counters/a%2F..%2Fb/increment',
    method: 'POST',
    body: '{"by":1}',
    headers: json,
  },
  {
    name: 'a broken percent-encoding',
    path: '/api/counters/%E0%A4%A/increment',
    method: 'POST',
    body: '{"by":1}',
    headers: json,
  },
  { name: 'a query value of the wrong type', path: '/api/counters?limit=many' },
  { name: 'a repeated query parameter', path: '/api/counters?limit=1&limit=2' },
  { name: 'an unknown query parameter', path: '/api/counters?limit=1&drop=table' },
  { name: 'DELETE on a POST route', path: increment, method: 'DELETE' },
  { name: 'PUT on a POST route', path: increment, method: 'PUT', body: '{"by":1}', headers: json },
  {
    name: 'POST on the health route',
    path: '/api/health',
    method: 'POST',
    body: '{}',
    headers: json,
  },
  {
    name: 'an unknown route',
    path: '/api/transfer-all-funds',
    method: 'POST',
    body: '{"by":1}',
    headers: json,
  },
  {
    name: 'an unknown route with broken JSON',
    path: '/api/nope',
    method: 'POST',
    body: '{',
    headers: json,
  },
  {
    name: 'an unknown route with a wrong content type',
    path: '/api/nope',
    method: 'POST',
    body: 'x',
    headers: { 'Content-Type': 'text/csv' },
  },
  { name: 'a path outside /api', path: '/etc/passwd' },
  { name: 'a dot-dot path', path: '/api/../../etc/passwd' },
  {
    name: 'a deeper unknown path',
    path: '/api/counters/a/increment/again',
    method: 'POST',
    body: '{"by":1}',
    headers: json,
  },
];

describe('malformed input on any route', () => {
  it.each(table)('$name: 4xx in the error shape, nothing appended', async (bad) => {
    const res = await h.app.request(bad.path, {
      method: bad.method ?? 'GET',
      body: bad.body,
      headers: { ...(bad.noAuth ? {} : { Authorization: 'Test c1 u1' }), ...bad.headers },
    });
    expect(res.status, `${res.status}`).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    await errorOf(res);
    expect(await h.settledHead()).toBe(headBefore);
  });
});

const oversized = JSON.stringify({ padding: 'x'.repeat(101 * 1024) });
const malformedForAnyRoute: Omit<BadRequest, 'path'>[] = [
  { name: 'broken JSON', body: '{"a":', headers: json },
  { name: 'a JSON array', body: '[1,2]', headers: json },
  { name: 'a JSON string', body: '"x"', headers: json },
  { name: 'only unknown fields', body: '{"zz_unknown":{"$ne":null}}', headers: json },
  { name: 'text/plain', body: 'hello', headers: { 'Content-Type': 'text/plain' } },
  { name: 'over 100 KB', body: oversized, headers: json },
  { name: 'a bogus bearer token', body: '{', headers: { ...json, Authorization: 'Bearer x.y.z' } },
];

describe('every route createApp mounts, today and as features are added', () => {
  it('answers malformed input with a 4xx in the error shape and appends nothing', async () => {
    const app = buildApp(h.deps, features);
    const routes = app.routes.filter(({ method }) => method !== 'ALL');
    expect(routes.length).toBeGreaterThan(0);
    const methodsOf = (path: string) =>
      routes.filter((route) => route.path === path).map(({ method }) => method);
    const failures: string[] = [];
    for (const route of routes) {
      const path = route.path.replace(/:[^/]+/g, 'x%00y');
      for (const bad of malformedForAnyRoute) {
        if (route.method === 'GET' || route.method === 'HEAD') continue;
        const res = await app.request(path, {
          method: route.method,
          body: bad.body,
          headers: bad.headers,
        });
        const shaped = await errorOf(res).then(
          () => true,
          () => false,
        );
        if (res.status < 400 || res.status >= 500 || !shaped) {
          failures.push(`${route.method} ${route.path} with ${bad.name}: ${res.status}`);
        }
      }
      const wrongMethod = ['DELETE', 'PATCH', 'PUT'].find(
        (m) => !methodsOf(route.path).includes(m),
      );
      if (!wrongMethod) continue;
      const res = await app.request(path, { method: wrongMethod });
      if (res.status !== 405) {
        failures.push(`${wrongMethod} ${route.path}: ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await h.settledHead()).toBe(headBefore);
  });
});
