import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postgresServers, useServer } from './testing/database';
import { counted } from './testing/events';
import { type Fixture, fixture } from './testing/fixture';
import { streamCountsProjection } from './testing/streamCounts';
import { ListeningReadModelWaiter } from './waiter';

let current: Fixture | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await current?.close();
  current = undefined;
});

async function given() {
  current = await fixture([
    streamCountsProjection({ name: 'first' }),
    streamCountsProjection({ name: 'second' }),
  ]);
  return current;
}

async function listeningWaiter(f: Fixture, recheckMs: number) {
  const waiter = await ListeningReadModelWaiter.start({
    pool: f.pool,
    names: ['first', 'second'],
    logger: f.logger,
    recheckMs,
  });
  cleanups.push(() => waiter.close());
  return waiter;
}
describe.each(await postgresServers())('on the $name PostgreSQL', (server) => {
  beforeAll(() => useServer(server));

  describe('the in-process waiter', () => {
    it('resolves true once every projection passed the position', async () => {
      const f = await given();
      const runner = f.startRunner();
      const position = await f.append('A-1', [counted()]);

      expect(await runner.readModelWaiter.waitFor(position, 5_000)).toBe(true);
      expect(await f.checkpointOf('first')).toBeGreaterThanOrEqual(position);
      expect(await f.checkpointOf('second')).toBeGreaterThanOrEqual(position);
    });

    it('answers false when the bound passes before the position is reached', async () => {
      const f = await given();
      const runner = f.startRunner();
      const head = await f.append('A-1', [counted()]);

      const started = performance.now();
      expect(await runner.readModelWaiter.waitFor(head + 1_000n, 100)).toBe(false);
      expect(performance.now() - started).toBeLessThan(1_000);
    });
  });

  describe('the listening waiter of an API in another process', () => {
    it('resolves on the runner NOTIFY, long before its fallback re-check', async () => {
      const f = await given();
      f.startRunner({ idlePollMs: 60_000 });
      const waiter = await listeningWaiter(f, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 100));

      const position = await f.append('B-1', [counted()]);
      const started = performance.now();

      expect(await waiter.waitFor(position, 5_000)).toBe(true);
      expect(performance.now() - started).toBeLessThan(1_000);
    });

    it('answers false when the position is not reached in time', async () => {
      const f = await given();
      f.startRunner();
      const waiter = await listeningWaiter(f, 60_000);
      const head = await f.append('B-1', [counted()]);

      expect(await waiter.waitFor(head + 1_000n, 100)).toBe(false);
    });

    it('knows the checkpoints already stored when it starts after the runner', async () => {
      const f = await given();
      const runner = f.startRunner();
      const position = await f.append('B-1', [counted()]);
      await runner.readModelWaiter.waitFor(position, 5_000);
      await runner.stop();

      const waiter = await listeningWaiter(f, 60_000);

      expect(await waiter.waitFor(position, 50)).toBe(true);
    });

    it('falls back to re-reading the table when no notice arrives', async () => {
      const f = await given();
      const runner = f.startRunner({ notifyCheckpoints: false });
      const waiter = await listeningWaiter(f, 50);
      const position = await f.append('B-1', [counted()]);
      await runner.readModelWaiter.waitFor(position, 5_000);

      expect(await waiter.waitFor(position, 2_000)).toBe(true);
    });
  });
});
