import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Company,
  type CustomersHarness,
  startCustomersHarness,
} from '../customers/testing/customersHarness';
import { errorOf, jsonOf } from '../http/testing/responses';
import { ChangeFeed } from './changeFeed';

const maxStreams = 1_000;
let h: CustomersHarness;
let a: Company;
let b: Company;

beforeAll(async () => {
  h = await startCustomersHarness({ changesMaxStreams: maxStreams });
  [a, b] = [await h.verifiedCompany(), await h.verifiedCompany()];
});
afterAll(() => h.close());

interface Sse {
  event: string;
  data: string;
  id: string | undefined;
}

/** An open stream: its messages as they arrive, parsed. */
function reader(res: Response) {
  const body = res.body?.getReader();
  if (!body) throw new Error('no body');
  const decoder = new TextDecoder();
  let buffer = '';
  const received: Sse[] = [];
  let pumping: Promise<void> | undefined;
  const pump = async () => {
    const { value, done } = await body.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const field = (name: string) =>
        block
          .split('\n')
          .find((line) => line.startsWith(`${name}:`))
          ?.slice(name.length + 1)
          .trim();
      if (!block.startsWith(':'))
        received.push({
          event: field('event') ?? 'message',
          data: field('data') ?? '',
          id: field('id'),
        });
      end = buffer.indexOf('\n\n');
    }
  };
  return {
    received,
    /** The first message matching, waiting at most `ms`; undefined if none came. */
    async until(match: (message: Sse) => boolean, ms: number): Promise<Sse | undefined> {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = received.find(match);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) return undefined;
        pumping ??= pump().finally(() => {
          pumping = undefined;
        });
        await Promise.race([pumping, new Promise((resolve) => setTimeout(resolve, left))]);
      }
    },
    close: () => body.cancel(),
  };
}

async function ticketOf(token: string) {
  const res = await h.call('POST', '/api/changes/ticket', { token });
  expect(res.status).toBe(201);
  return (await jsonOf<{ ticket: string }>(res)).ticket;
}

async function open(token: string, headers: Record<string, string> = {}) {
  const res = await h.call('GET', `/api/changes?ticket=${await ticketOf(token)}`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('Content-Type')).toContain('text/event-stream');
  const stream = reader(res);
  const ready = await stream.until((m) => m.event === 'ready', 5_000);
  expect(ready).toBeDefined();
  return { ...stream, readyId: ready?.id };
}

const isChange = (resource: string, id: string) => (m: Sse) =>
  m.event === 'change' &&
  (JSON.parse(m.data) as { resource: string; ids: string[] }).resource === resource &&
  (JSON.parse(m.data) as { ids: string[] }).ids.includes(id);

describe('GET /api/changes', () => {
  it("tells the company's streams which records changed, within a second, and no one else", async () => {
    const mine = await open(a.token);
    const theirs = await open(b.token);
    const started = Date.now();
    const added = await h.addCustomer(a.token, {
      name: 'Live',
      lastName: 'One',
      email: 'l@a.test',
    });
    const change = await mine.until(isChange('customers', added.id), 1_000);
    expect(change, 'the change within 1 s').toBeDefined();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(change?.data).not.toContain('Live');
    expect(await theirs.until((m) => m.event === 'change', 500)).toBeUndefined();
    await Promise.all([mine.close(), theirs.close()]);
  });

  it('reaches every API process: a second feed on its own LISTEN connection hears the change', async () => {
    const second = await ChangeFeed.start({
      pool: h.pool,
      logger: h.deps.logger,
      readModels: h.deps.readModels,
    });
    try {
      const stream = await second.subscribe(a.companyId);
      expect((await stream.next()) as { event: string }).toMatchObject({ event: 'ready' });
      const added = await h.addCustomer(a.token, {
        name: 'Other',
        lastName: 'Process',
        email: 'p@a.test',
      });
      const message = await stream.next();
      expect(message).toMatchObject({ event: 'change' });
      expect(JSON.parse((message as { data: string }).data)).toEqual({
        resource: 'customers',
        ids: [added.id],
      });
      stream.close();
    } finally {
      await second.close();
    }
  });

  it('resumes after Last-Event-ID with what was missed', async () => {
    const first = await open(a.token);
    const since = first.readyId ?? '0';
    await first.close();
    const added = await h.addCustomer(a.token, {
      name: 'Missed',
      lastName: 'One',
      email: 'm@a.test',
    });
    const again = await open(a.token, { 'Last-Event-ID': since });
    expect(again.received.some(isChange('customers', added.id))).toBe(true);
    await again.close();
  });

  it('refuses a missing, forged or foreign ticket and bad input', async () => {
    expect((await h.call('GET', '/api/changes')).status).toBe(401);
    const forged = await h.call('GET', '/api/changes?ticket=a.b.c');
    expect(forged.status).toBe(401);
    expect((await errorOf(forged)).code).toBe('invalid_token');
    // An access token is not a ticket (another audience).
    expect((await h.call('GET', `/api/changes?ticket=${a.token}`)).status).toBe(401);
    const bad = await h.call('GET', '/api/changes?lastEventId=x', { token: a.token });
    expect(bad.status).toBe(400);
    expect(Object.keys((await errorOf(bad)).fields ?? {})).toContain('lastEventId');
    expect((await h.call('POST', '/api/changes/ticket')).status).toBe(401);
  });

  it('holds 1,000 idle streams without slowing commands, and refuses the next with a 503', async () => {
    const timeCommands = async (label: string) => {
      const samples: number[] = [];
      for (let i = 0; i < 15; i += 1) {
        const began = performance.now();
        await h.addCustomer(a.token, {
          name: label,
          lastName: `N${i}`,
          email: `${label}${i}@a.test`,
        });
        samples.push(performance.now() - began);
      }
      return samples.sort((x, y) => x - y)[Math.floor(samples.length / 2)] ?? 0;
    };
    const before = await timeCommands('before');
    const ticket = await ticketOf(a.token);
    const streams = [];
    for (let i = 0; i < maxStreams; i += 1) {
      const res = await h.call('GET', `/api/changes?ticket=${ticket}`);
      expect(res.status).toBe(200);
      streams.push(reader(res));
    }
    const during = await timeCommands('during');
    console.info(
      `command median: ${before.toFixed(1)} ms without streams, ${during.toFixed(1)} ms with ${maxStreams}`,
    );
    expect(during).toBeLessThan(before * 3 + 50);
    const refused = await h.call('GET', `/api/changes?ticket=${ticket}`);
    expect(refused.status).toBe(503);
    expect((await errorOf(refused)).code).toBe('too_many_streams');
    await Promise.all(streams.map((stream) => stream.close()));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(h.deps.changes?.openStreams).toBe(0);
  }, 120_000);
});
