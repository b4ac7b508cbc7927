import { Writable } from 'node:stream';
import type { RecordedEvent } from '@issuer/events';
import { pino } from 'pino';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postgresServers, useServer } from './testing/database';
import { counted } from './testing/events';
import { eventually, visible } from './testing/eventually';
import { type Fixture, fixture } from './testing/fixture';
import { STREAM_COUNTS_TABLE, streamCountsProjection } from './testing/streamCounts';

let current: Fixture | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

const isPoisoned = (event: RecordedEvent) =>
  (event.data as { poison?: boolean } | null)?.poison === true;

function logCollector() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level: 'warn' }, stream), lines };
}

async function rowsOf(f: Fixture) {
  const { rows } = await f.pool.query(
    `SELECT stream_id, events FROM ${STREAM_COUNTS_TABLE} ORDER BY stream_id`,
  );
  return rows;
}
describe.each(await postgresServers())('on the $name PostgreSQL', (server) => {
  beforeAll(() => useServer(server));

  describe('a poisoned event among good ones', () => {
    it('is retried with backoff, recorded as failed, and the events after it are still applied', async () => {
      let poisonAttemptsAlone = 0;
      const projection = streamCountsProjection({
        async beforeWrite(events) {
          if (!events.some(isPoisoned)) return;
          if (events.length === 1) poisonAttemptsAlone += 1;
          throw new Error('cannot handle this event');
        },
      });
      current = await fixture([projection]);
      const f = current;
      await f.append('P-1', [counted(), counted()]);
      const poisonPosition = await f.append('P-2', [counted({ poison: true })]);
      await f.append('P-1', [counted()]);
      const head = await f.append('P-3', [counted()]);
      const { logger, lines } = logCollector();

      const runner = f.startRunner({ logger, retryDelaysMs: [5, 10, 20] });

      expect(await runner.readModelWaiter.waitFor(head, 10_000)).toBe(true);
      expect(poisonAttemptsAlone).toBe(4);
      expect(await rowsOf(f)).toEqual([
        { stream_id: 'P-1', events: 3 },
        { stream_id: 'P-3', events: 1 },
      ]);
      const { rows: failures } = await f.pool.query(
        'SELECT projection, position, event_type, error, attempts FROM projection_failures',
      );
      expect(failures).toEqual([
        {
          projection: 'stream_counts',
          position: poisonPosition.toString(),
          event_type: 'Counted',
          error: 'Error: cannot handle this event',
          attempts: 4,
        },
      ]);
      const status = await runner.status();
      expect(status.projections[0]).toMatchObject({ name: 'stream_counts', failedEvents: 1 });
      expect(status.recentFailures[0]).toMatchObject({
        position: poisonPosition,
        eventType: 'Counted',
      });
      expect(
        lines.some((line) => line.level === 50 && line.position === poisonPosition.toString()),
      ).toBe(true);
    });

    it('is found in a large batch by halving, not by applying each event alone', async () => {
      let applyCalls = 0;
      const projection = streamCountsProjection({
        async beforeWrite(events) {
          applyCalls += 1;
          if (events.some(isPoisoned)) throw new Error('cannot handle this event');
        },
      });
      current = await fixture([projection]);
      const f = current;
      await f.append(
        'Big-1',
        Array.from({ length: 300 }, () => counted()),
      );
      await f.append('Big-2', [counted({ poison: true })]);
      const head = await f.append(
        'Big-1',
        Array.from({ length: 211 }, () => counted()),
      );
      await visible(f.store, head);

      const runner = f.startRunner({ batchSize: 1000 });

      expect(await runner.readModelWaiter.waitFor(head, 10_000)).toBe(true);
      expect(await rowsOf(f)).toEqual([{ stream_id: 'Big-1', events: 511 }]);
      expect(applyCalls).toBeLessThan(30);
    });

    it('succeeds on a retry when the failure was transient, recording nothing', async () => {
      let failuresLeft = 2;
      const projection = streamCountsProjection({
        async beforeWrite() {
          if (failuresLeft > 0) {
            failuresLeft -= 1;
            throw new Error('deadlock, say');
          }
        },
      });
      current = await fixture([projection]);
      const head = await current.append('T-1', [counted()]);

      const runner = current.startRunner();

      expect(await runner.readModelWaiter.waitFor(head, 10_000)).toBe(true);
      expect(await rowsOf(current)).toEqual([{ stream_id: 'T-1', events: 1 }]);
      const { rows } = await current.pool.query('SELECT * FROM projection_failures');
      expect(rows).toEqual([]);
    });

    it('holds back no other projection while it is retried', async () => {
      let release: () => void = () => {};
      const stuck = new Promise<void>((resolve) => {
        release = resolve;
      });
      const slowFailing = {
        ...streamCountsProjection({ name: 'failing' }),
        tables: [],
        async migrate() {},
        async apply() {
          await stuck;
          throw new Error('always fails');
        },
      };
      current = await fixture([streamCountsProjection(), slowFailing]);
      const head = await current.append('H-1', [counted()]);

      current.startRunner();

      const f = current;
      await eventually(async () => (await f.checkpointOf('stream_counts')) === head);
      expect(await current.checkpointOf('failing')).toBe(-1n);
      release();
    });
  });
});
