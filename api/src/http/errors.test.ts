import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CounterControls, counterFeature } from './testing/counterFeature';
import { type Harness, startHarness } from './testing/harness';
import { errorOf } from './testing/responses';
import type { AppEnv, Feature } from './types';

const controls: CounterControls = { crashBeforeAppend: false, stall: undefined };
const auth = { Authorization: 'Test company-1 user-1' };
let h: Harness;

const edgeCases: Feature = (deps) =>
  new Hono<AppEnv>()
    .get('/edge/unvalidated/:id', async (c) => {
      await deps.pool.query('SELECT $1::uuid', [c.req.param('id')]);
      return c.json({ ok: true });
    })
    .get('/edge/http-exception', () => {
      throw new HTTPException(401);
    })
    .get('/edge/database-down', async (c) => {
      // Port 1 on loopback: nothing listens there, as when PostgreSQL is stopped.
      const unreachable = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
      try {
        await unreachable.query('SELECT 1');
      } finally {
        await unreachable.end();
      }
      return c.json({ ok: true });
    });

beforeAll(async () => {
  h = await startHarness([counterFeature(controls), edgeCases]);
});
afterAll(() => h.close());

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  h.app.request(path, {
    method: 'POST',
    body,
    headers: { ...auth, 'Content-Type': 'application/json', ...headers },
  });

describe('the one error shape', () => {
  it('maps a DomainError to its status, code, message and fields (also spread for the seed client)', async () => {
    await post('/api/counters/limit/increment', '{"by":10}');
    for (let i = 0; i < 9; i++) await post('/api/counters/limit/increment', '{"by":10}');
    const res = await post('/api/counters/limit/increment', '{"by":1}');
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      error: {
        code: 'counter_limit',
        message: 'A counter stops at 100',
        fields: { by: 'Too much' },
        by: 'Too much',
      },
    });
  });

  it('answers a zod failure with 400 and one message per field', async () => {
    const res = await post('/api/counters/a/increment', '{"by":0,"note":5}');
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe('invalid_request');
    expect(error.message).toBe('Must be at least 1');
    expect(error.fields).toEqual({
      by: 'Must be at least 1',
      note: expect.stringMatching(/expected string/),
    });
    expect(error.by).toBe('Must be at least 1');
  });

  it('refuses unknown fields, naming them', async () => {
    const res = await post('/api/counters/a/increment', '{"by":1,"companyId":"other"}');
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.fields).toEqual({ companyId: 'Unknown field' });
    expect(error.message).toBe('Unknown field: companyId');
  });

  it('answers broken JSON with 400', async () => {
    const res = await post('/api/counters/a/increment', '{"by":');
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({
      code: 'invalid_request',
      message: 'Malformed JSON in request body',
    });
  });

  it('reads a JSON content type with no body as no body: the fields are missing, not the JSON', async () => {
    const withoutType = await h.app.request('/api/counters/a/increment', {
      method: 'POST',
      headers: auth,
    });
    expect(withoutType.status).toBe(400);
    const missing = await errorOf(withoutType);
    expect(Object.keys(missing.fields ?? {})).toEqual(['by']);
    for (const body of ['', ' \n']) {
      const res = await post('/api/counters/a/increment', body);
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toEqual(missing);
    }
  });

  it('answers a body that is not JSON with 415', async () => {
    const res = await post('/api/counters/a/increment', 'by=1', {
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(415);
    expect((await errorOf(res)).code).toBe('unsupported_media_type');
  });

  it('answers a body over 100 KB with 413, on known and unknown routes', async () => {
    const big = JSON.stringify({ by: 1, note: 'x'.repeat(101 * 1024) });
    for (const path of ['/api/counters/a/increment', '/api/nowhere']) {
      const res = await post(path, big);
      expect(res.status).toBe(413);
      expect((await errorOf(res)).code).toBe('payload_too_large');
    }
  });

  it('answers an unknown route with 404', async () => {
    const res = await h.app.request('/api/nowhere');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: 'not_found', message: 'There is nothing at this address' },
    });
  });

  it('answers a known path with a wrong method with 405 and Allow', async () => {
    const res = await h.app.request('/api/counters/a/increment', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe('POST');
    expect((await errorOf(res)).code).toBe('method_not_allowed');
  });

  it('answers an unexpected failure with a bare 500, logging the stack but never sending it', async () => {
    controls.crashBeforeAppend = true;
    try {
      const res = await post('/api/counters/a/increment', '{"by":1}', {
        'X-Request-Id': 'crash-1',
      });
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({
        error: { code: 'internal_error', message: 'Something went wrong on our side' },
      });
      expect(text).not.toContain('secret');
      const logged = h.logs().find((line) => line.msg === 'unhandled error');
      expect(logged?.requestId).toBe('crash-1');
      expect(JSON.stringify(logged?.err)).toContain('disk on fire');
      expect(JSON.stringify(logged?.err)).toContain('at ');
    } finally {
      controls.crashBeforeAppend = false;
    }
  });

  it('answers a value PostgreSQL refuses (a validator was missing) with 400, not 500', async () => {
    const res = await h.app.request('/api/edge/unvalidated/not-a-uuid');
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({
      code: 'invalid_request',
      message: 'A value in the request is not valid',
    });
  });

  it("gives hono's own HTTPExceptions the shape, with a message even when they had none", async () => {
    const res = await h.app.request('/api/edge/http-exception');
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toEqual({ code: 'unauthorized', message: 'unauthorized' });
  });

  it('answers with 503 in the one shape while the database cannot be reached', async () => {
    const res = await h.app.request('/api/edge/database-down');
    expect(res.status).toBe(503);
    expect(res.headers.get('Retry-After')).toBe('5');
    expect(await errorOf(res)).toEqual({
      code: 'service_unavailable',
      message: 'The service is briefly unavailable; please try again',
    });
    expect(h.logs().some((line) => line.msg === 'database unavailable')).toBe(true);
  });
});
