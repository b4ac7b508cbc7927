import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counterFeature } from './testing/counterFeature';
import { type Harness, startHarness } from './testing/harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness([counterFeature({ crashBeforeAppend: false, stall: undefined })]);
});
afterAll(() => h.close());

const requestLines = () => h.logs().filter((line) => line.msg === 'request');

describe('request logging', () => {
  it('writes one JSON line per request with method, path, status, duration, request id and company', async () => {
    const before = requestLines().length;
    await h.app.request('/api/counters/logged/increment?token=query-secret', {
      method: 'POST',
      body: JSON.stringify({ by: 1, note: 'body-secret' }),
      headers: {
        Authorization: 'Test company-9 user-9',
        'Content-Type': 'application/json',
        'X-Request-Id': 'log-req-1',
        'Idempotency-Key': 'key-secret',
      },
    });
    const lines = requestLines().slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      method: 'POST',
      path: '/api/counters/logged/increment',
      status: 201,
      requestId: 'log-req-1',
      companyId: 'company-9',
      userId: 'user-9',
    });
    expect(lines[0]?.durationMs).toEqual(expect.any(Number));
  });

  it('logs failed and unknown requests too, without the company when there is no caller', async () => {
    const before = requestLines().length;
    await h.app.request('/api/nowhere', { headers: { 'X-Request-Id': 'log-req-2' } });
    const [line] = requestLines().slice(before);
    expect(line).toMatchObject({ status: 404, requestId: 'log-req-2', path: '/api/nowhere' });
    expect(line?.companyId).toBeUndefined();
  });

  it('never writes bodies, passwords, tokens, query strings or the Authorization header', async () => {
    await h.app.request('/api/counters/x/increment?password=hunter2-query', {
      method: 'POST',
      body: '{"by":1,"password":"hunter2-body"}',
      headers: {
        Authorization: 'Test company-1 user-1 eyJhbGciOi.token',
        'Content-Type': 'application/json',
      },
    });
    const everything = h.logLines.join('\n');
    for (const secret of ['hunter2', 'eyJhbGciOi', 'body-secret', 'query-secret', 'key-secret']) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).not.toMatch(/authorization/i);
  });
});

describe('X-Request-Id', () => {
  it('echoes a valid one', async () => {
    const res = await h.app.request('/api/nowhere', { headers: { 'X-Request-Id': 'abc-123_x' } });
    expect(res.headers.get('X-Request-Id')).toBe('abc-123_x');
  });

  it('generates one when absent, too long or carrying odd characters', async () => {
    for (const sent of [undefined, 'a'.repeat(101), 'evil line', '<script>']) {
      const headers: Record<string, string> = sent === undefined ? {} : { 'X-Request-Id': sent };
      const res = await h.app.request('/api/nowhere', { headers });
      const echoed = res.headers.get('X-Request-Id');
      expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('CORS for the admin UI', () => {
  it('answers a preflight and lets the browser read Content-Range, ETag and X-Read-Models', async () => {
    const preflight = await h.app.request('/api/counters/a/increment', {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type,if-match,idempotency-key',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('Access-Control-Allow-Headers')).toMatch(/Idempotency-Key/);
    expect(preflight.headers.get('Access-Control-Allow-Headers')).toMatch(/If-Match/);

    const res = await h.app.request('/api/counters/cors', {
      headers: { Origin: 'http://localhost:5173', Authorization: 'Test company-1 user-1' },
    });
    const exposed = res.headers.get('Access-Control-Expose-Headers') ?? '';
    for (const header of ['Content-Range', 'ETag', 'X-Read-Models']) {
      expect(exposed).toContain(header);
    }
  });
});
