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

const hour = 60 * 60 * 1000;

function increment(id: string, key: string, by = 1, user = 'user-1') {
  return h.app.request(`/api/counters/${id}/increment`, {
    method: 'POST',
    body: JSON.stringify({ by }),
    headers: {
      Authorization: `Test company-1 ${user}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': key,
    },
  });
}

const eventsOf = async (id: string) => (await h.store.readStream(counterStream(id))).length;

describe('a repeated request with the same key and body', () => {
  it('answers the first response again and appends nothing', async () => {
    h.readModels.caughtUp = false;
    const first = await increment('replay', 'key-replay', 2);
    h.readModels.caughtUp = true;
    const head = await h.settledHead();

    const again = await increment('replay', 'key-replay', 2);
    expect(again.status).toBe(first.status);
    expect(await again.text()).toBe(await first.text());
    expect(again.headers.get('ETag')).toBe('"0"');
    expect(again.headers.get('X-Read-Models')).toBe('catching-up');
    expect(again.headers.get('Content-Type')).toBe(first.headers.get('Content-Type'));
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await h.settledHead()).toBe(head);
    expect(await eventsOf('replay')).toBe(1);
  });

  it('replays a client error too: the same request would fail the same way', async () => {
    for (let i = 0; i < 10; i++) await increment('full', `fill-${i}`, 10);
    const refused = await increment('full', 'key-full', 1);
    expect(refused.status).toBe(422);
    await h.app.request('/api/counters/full/reset', {
      method: 'POST',
      headers: { Authorization: 'Test company-1 user-1' },
    });
    const again = await increment('full', 'key-full', 1);
    expect(again.status).toBe(422);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    const fresh = await increment('full', 'key-full-2', 1);
    expect(fresh.status).toBe(201);
  });
});

describe('a stored response', () => {
  it('is sealed at rest: the table never holds the answer in clear', async () => {
    const first = await increment('sealed', 'key-sealed', 3);
    const text = await first.text();
    const { rows } = await h.pool.query<{ response_body: Buffer }>(
      "SELECT response_body FROM idempotency_keys WHERE key = 'key-sealed'",
    );
    expect(rows[0]?.response_body.includes(Buffer.from(text))).toBe(false);
    expect(await (await increment('sealed', 'key-sealed', 3)).text()).toBe(text);
  });
});

describe('the same key with a different request', () => {
  it('answers 422 idempotency_key_reused for another body', async () => {
    await increment('reuse', 'key-reuse', 1);
    const res = await increment('reuse', 'key-reuse', 2);
    expect(res.status).toBe(422);
    expect((await errorOf(res)).code).toBe('idempotency_key_reused');
    expect(await eventsOf('reuse')).toBe(1);
  });

  it('answers 422 for another path', async () => {
    await increment('path-a', 'key-path', 1);
    const res = await increment('path-b', 'key-path', 1);
    expect(res.status).toBe(422);
    expect(await eventsOf('path-b')).toBe(0);
  });
});

describe('keys are scoped', () => {
  it('to the user: another user with the same key runs their own command', async () => {
    const mine = await increment('scoped', 'shared-key', 1, 'user-1');
    const theirs = await increment('scoped', 'shared-key', 1, 'user-2');
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await eventsOf('scoped')).toBe(2);
  });

  it('to the key alone on routes without a token', async () => {
    const call = () =>
      h.app.request('/api/public/counters/anonymous/increment', {
        method: 'POST',
        body: '{"by":1}',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'anon-key' },
      });
    expect((await call()).status).toBe(201);
    const again = await call();
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await eventsOf('anonymous')).toBe(1);
  });
});

describe('two requests with one key at the same time', () => {
  it('produce one effect: the second waits for the first and replays it', async () => {
    h.readModels.delayMs = 150;
    try {
      const [a, b] = await Promise.all([
        increment('concurrent', 'key-concurrent', 3),
        increment('concurrent', 'key-concurrent', 3),
      ]);
      expect([a?.status, b?.status]).toEqual([201, 201]);
      expect(await a?.text()).toBe(await b?.text());
      const replayed = [a, b].filter((res) => res?.headers.get('Idempotent-Replayed') === 'true');
      expect(replayed).toHaveLength(1);
      expect(await eventsOf('concurrent')).toBe(1);
    } finally {
      h.readModels.delayMs = 0;
    }
  });

  it('answers 409 idempotency_key_in_progress when the first is still running after the bound', async () => {
    let letGo = () => {};
    controls.stall = new Promise((resolve) => {
      letGo = resolve;
    });
    h.deps.config.idempotencyWaitMs = 100;
    try {
      const first = increment('stalled', 'key-stalled', 1);
      await new Promise((resolve) => setTimeout(resolve, 30));
      const second = await increment('stalled', 'key-stalled', 1);
      expect(second.status).toBe(409);
      expect((await errorOf(second)).code).toBe('idempotency_key_in_progress');
      letGo();
      expect((await first).status).toBe(201);
      expect(await eventsOf('stalled')).toBe(1);
    } finally {
      controls.stall = undefined;
      h.deps.config.idempotencyWaitMs = 5_000;
    }
  });
});

describe('a server error', () => {
  it('releases the key, so the retry runs the command', async () => {
    controls.crashBeforeAppend = true;
    const failed = await increment('crashy', 'key-crashy', 1);
    controls.crashBeforeAppend = false;
    expect(failed.status).toBe(500);
    const retried = await increment('crashy', 'key-crashy', 1);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await eventsOf('crashy')).toBe(1);
  });
});

describe('retention', () => {
  it('keeps a key 24 hours, then lets it run again and prunes expired keys', async () => {
    await increment('retained', 'key-retained', 1);
    h.advanceClock(23 * hour);
    const within = await increment('retained', 'key-retained', 1);
    expect(within.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await eventsOf('retained')).toBe(1);

    h.advanceClock(2 * hour);
    const after = await increment('retained', 'key-retained', 1);
    expect(after.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await jsonOf(after)).toMatchObject({ count: 2 });

    await expect
      .poll(async () => {
        const { rows } = await h.pool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM idempotency_keys WHERE key = 'key-replay'",
        );
        return rows[0]?.n;
      })
      .toBe(0);
  });
});

describe('a route that forgot the idempotent middleware', () => {
  it('refuses to run a keyed command rather than risk applying it twice', async () => {
    const res = await h.app.request('/api/counters/forgetful/forgetful', {
      method: 'POST',
      headers: { Authorization: 'Test company-1 user-1', 'Idempotency-Key': 'k' },
    });
    expect(res.status).toBe(500);
    expect(await eventsOf('forgetful')).toBe(0);
  });
});
