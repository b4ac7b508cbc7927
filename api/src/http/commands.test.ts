import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CounterControls, counterFeature, counterStream } from './testing/counterFeature';
import { type Harness, startHarness } from './testing/harness';
import { errorOf, jsonOf } from './testing/responses';

const controls: CounterControls = { crashBeforeAppend: false, stall: undefined };
let h: Harness;

beforeAll(async () => {
  h = await startHarness([counterFeature(controls)]);
});
afterAll(() => h.close());

const increment = (id: string, by = 1, headers: Record<string, string> = {}) =>
  h.app.request(`/api/counters/${id}/increment`, {
    method: 'POST',
    body: JSON.stringify({ by }),
    headers: {
      Authorization: 'Test company-1 user-1',
      'Content-Type': 'application/json',
      ...headers,
    },
  });

describe('a command on a new stream', () => {
  it('appends the decided event with metadata from the token, the request and the clock', async () => {
    const res = await increment('meta', 3, { 'X-Request-Id': 'req-meta-1' });
    expect(res.status).toBe(201);
    expect(await jsonOf(res)).toEqual({ count: 3, readModels: 'up-to-date' });
    expect(res.headers.get('ETag')).toBe('"0"');
    expect(res.headers.get('X-Read-Models')).toBeNull();

    const [event] = await h.store.readStream(counterStream('meta'));
    expect(event?.type).toBe('CounterIncremented');
    expect(event?.data).toEqual({ by: 3 });
    expect(event?.metadata).toEqual({
      companyId: 'company-1',
      userId: 'user-1',
      correlationId: 'req-meta-1',
      causationId: 'req-meta-1',
      occurredAt: '2025-01-15T10:00:00.000Z',
      schemaVersion: 1,
    });
    expect(h.readModels.positions.at(-1)).toBe(event?.position);
  });

  it('takes the company from the caller argument when there is no token (registration)', async () => {
    const res = await h.app.request('/api/public/counters/anon/increment', {
      method: 'POST',
      body: '{"by":1}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(201);
    const [event] = await h.store.readStream(counterStream('anon'));
    expect(event?.metadata.companyId).toBe('public-company');
    expect(event?.metadata.userId).toBeNull();
  });
});

describe('a command when the read models lag', () => {
  it('still succeeds, says so in a header and in the body', async () => {
    h.readModels.caughtUp = false;
    try {
      const res = await increment('lagging');
      expect(res.status).toBe(201);
      expect(res.headers.get('X-Read-Models')).toBe('catching-up');
      expect(await jsonOf(res)).toEqual({ count: 1, readModels: 'catching-up' });
    } finally {
      h.readModels.caughtUp = true;
    }
  });
});

describe('a command the decider finds nothing to do for', () => {
  it('appends nothing and does not wait', async () => {
    const head = await h.settledHead();
    const res = await h.app.request('/api/counters/never-touched/reset', {
      method: 'POST',
      headers: { Authorization: 'Test company-1 user-1' },
    });
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toEqual({ count: 0, appended: 0 });
    expect(res.headers.get('ETag')).toBeNull();
    expect(await h.settledHead()).toBe(head);
  });
});

describe('If-Match', () => {
  it('accepts the current revision, strong or weak, and answers the next ETag', async () => {
    await increment('etag');
    const strong = await increment('etag', 1, { 'If-Match': '"0"' });
    expect(strong.status).toBe(201);
    expect(strong.headers.get('ETag')).toBe('"1"');
    const weak = await increment('etag', 1, { 'If-Match': 'W/"1"' });
    expect(weak.status).toBe(201);
    expect(weak.headers.get('ETag')).toBe('"2"');
  });

  it('answers 412 to a stale revision and appends nothing', async () => {
    await increment('stale');
    await increment('stale');
    const head = await h.settledHead();
    const res = await increment('stale', 1, { 'If-Match': '"0"' });
    expect(res.status).toBe(412);
    const error = await errorOf(res);
    expect(error.code).toBe('precondition_failed');
    expect(error.message).toContain('"1"');
    expect(await h.settledHead()).toBe(head);
  });

  it('answers 412 when two clients send the same revision at once: exactly one wins', async () => {
    await increment('race-if-match');
    const results = await Promise.all(
      Array.from({ length: 6 }, () => increment('race-if-match', 1, { 'If-Match': '"0"' })),
    );
    const statuses = results.map((res) => res.status).sort();
    expect(statuses).toEqual([201, 412, 412, 412, 412, 412]);
    expect(await h.store.readStream(counterStream('race-if-match'))).toHaveLength(2);
  });

  it('answers 412 when If-Match names a stream that does not exist', async () => {
    const res = await increment('ghost', 1, { 'If-Match': '"0"' });
    expect(res.status).toBe(412);
  });

  it('reads back with the ETag of the current revision', async () => {
    await increment('read-back');
    const res = await h.app.request('/api/counters/read-back', {
      headers: { Authorization: 'Test company-1 user-1' },
    });
    expect(res.headers.get('ETag')).toBe('"0"');
    expect(await jsonOf(res)).toEqual({ count: 1 });
  });
});

describe('concurrent commands without If-Match', () => {
  it('are retried after a conflict, so none is lost', async () => {
    const results = await Promise.all(Array.from({ length: 4 }, () => increment('busy')));
    expect(results.map((res) => res.status)).toEqual([201, 201, 201, 201]);
    const events = await h.store.readStream(counterStream('busy'));
    expect(events.map((event) => event.revision)).toEqual([0n, 1n, 2n, 3n]);
  });
});

describe('a command that pins its expected revision', () => {
  it('is not retried: a conflict answers 409 concurrency_conflict and appends nothing', async () => {
    const create = () =>
      h.app.request('/api/counters/pinned/create', {
        method: 'POST',
        headers: { Authorization: 'Test company-1 user-1' },
      });
    expect((await create()).status).toBe(201);
    const again = await create();
    expect(again.status).toBe(409);
    expect((await errorOf(again)).code).toBe('concurrency_conflict');
    expect(await h.store.readStream(counterStream('pinned'))).toHaveLength(1);
  });
});

describe('a command over several streams', () => {
  it('writes each stream and waits once', async () => {
    const res = await h.app.request('/api/pairs', {
      method: 'POST',
      body: '{"name":"alpha","counter":"alpha-counter"}',
      headers: { Authorization: 'Test company-1 user-1', 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(201);
    expect(await h.store.readStream('CounterName-alpha')).toHaveLength(1);
    expect(await h.store.readStream(counterStream('alpha-counter'))).toHaveLength(1);
  });

  it('applies If-Match only to the stream the route says it names', async () => {
    await increment('beta-counter');
    const res = await h.app.request('/api/pairs', {
      method: 'POST',
      body: '{"name":"beta","counter":"beta-counter"}',
      headers: {
        Authorization: 'Test company-1 user-1',
        'Content-Type': 'application/json',
        'If-Match': '"0"',
      },
    });
    expect(res.status).toBe(201);
    expect(await h.store.readStream(counterStream('beta-counter'))).toHaveLength(2);
  });

  it("turns a taken reservation into the route's own conflict message", async () => {
    const again = await h.app.request('/api/pairs', {
      method: 'POST',
      body: '{"name":"alpha","counter":"other-counter"}',
      headers: { Authorization: 'Test company-1 user-1', 'Content-Type': 'application/json' },
    });
    expect(again.status).toBe(409);
    expect(await errorOf(again)).toMatchObject({
      code: 'conflict',
      message: 'The name is already in use',
      name: 'The name is already in use',
    });
    expect(await h.store.readStream(counterStream('other-counter'))).toHaveLength(0);
  });
});
