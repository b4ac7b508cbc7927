import type { RecordedEvent } from '@issuer/events';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { postgresServers, useServer } from './testing/database';
import { counted, ignored } from './testing/events';
import { eventually } from './testing/eventually';
import { type Fixture, fixturePerTest } from './testing/fixture';
import { STREAM_COUNTS_TABLE, streamCountsProjection } from './testing/streamCounts';

const freshFixture = fixturePerTest();

async function given(options: Parameters<typeof streamCountsProjection>[0] = {}) {
  return freshFixture([streamCountsProjection(options)]);
}

async function rows(f: Fixture) {
  const { rows } = await f.pool.query(
    `SELECT stream_id, events FROM ${STREAM_COUNTS_TABLE} ORDER BY stream_id`,
  );
  return rows;
}

async function caughtUp(f: Fixture, position: bigint) {
  const runner = f.startRunner();
  expect(await runner.readModelWaiter.waitFor(position, 10_000)).toBe(true);
  return runner;
}
/** Counts the UPDATEs of the checkpoint rows from here on (a trigger, so nothing is missed). */
async function countCheckpointWrites(f: Fixture) {
  await f.pool.query(`
    CREATE TABLE checkpoint_writes (n bigint NOT NULL);
    INSERT INTO checkpoint_writes VALUES (0);
    CREATE FUNCTION count_checkpoint_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN UPDATE checkpoint_writes SET n = n + 1; RETURN NULL; END $$;
    CREATE TRIGGER count_writes AFTER UPDATE ON projection_checkpoints
      FOR EACH ROW EXECUTE FUNCTION count_checkpoint_write();`);
}

async function checkpointWrites(f: Fixture): Promise<number> {
  const { rows } = await f.pool.query<{ n: string }>('SELECT n FROM checkpoint_writes');
  return Number(rows[0]?.n);
}

describe.each(await postgresServers())('on the $name PostgreSQL', (server) => {
  beforeAll(() => useServer(server));

  describe('given events already in the store, a started runner', () => {
    it('applies the handled events and stores the checkpoint at the last one', async () => {
      const f = await given();
      await f.append('A-1', [counted(), counted(), counted()]);
      await f.append('B-1', [counted(), ignored()]);
      const head = await f.append('B-1', [counted()]);

      await caughtUp(f, head);

      expect(await rows(f)).toEqual([
        { stream_id: 'A-1', events: 3 },
        { stream_id: 'B-1', events: 2 },
      ]);
      expect(await f.checkpointOf('stream_counts')).toBe(head);
    });

    it('works through a backlog larger than one batch', async () => {
      const f = await given();
      for (let round = 0; round < 5; round += 1)
        await f.append(
          `S-${round % 2}`,
          Array.from({ length: 50 }, () => counted()),
        );
      const head = await f.append('S-0', [counted()]);

      const runner = f.startRunner({ batchSize: 7 });

      expect(await runner.readModelWaiter.waitFor(head, 10_000)).toBe(true);
      expect(await rows(f)).toEqual([
        { stream_id: 'S-0', events: 151 },
        { stream_id: 'S-1', events: 100 },
      ]);
    });

    it('moves the checkpoint over events it does not handle, writing no rows', async () => {
      const f = await given();
      const head = await f.append('X-1', [ignored(), ignored()]);

      const runner = await caughtUp(f, head);

      expect(await rows(f)).toEqual([]);
      await runner.stop();
      expect(await f.checkpointOf('stream_counts')).toBe(head);
    });
  });

  describe('events it does not handle, arriving one by one', () => {
    it('satisfy waiters at once, and their checkpoint is written about once a second, not per event', async () => {
      const f = await given();
      await countCheckpointWrites(f);
      const runner = f.startRunner({ idlePollMs: 60_000 });
      const started = performance.now();
      let head = 0n;
      for (let event = 0; event < 30; event += 1) {
        head = await f.append(`I-${event}`, [ignored()]);
        expect(await runner.readModelWaiter.waitFor(head, 2_000)).toBe(true);
      }
      const seconds = (performance.now() - started) / 1000;
      expect(await checkpointWrites(f)).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
      await eventually(
        async () => (await f.checkpointOf('stream_counts')) === head,
        3_000,
        'the checkpoint to be written',
      );
    });

    it('leave the status caught up at once, though the stored checkpoint is still behind', async () => {
      const f = await given();
      const applied = await f.append('A-1', [counted()]);
      const runner = await caughtUp(f, applied);
      const head = await f.append('I-1', [ignored()]);
      expect(await runner.readModelWaiter.waitFor(head, 2_000)).toBe(true);

      const { projections } = await runner.status();

      expect(await f.checkpointOf('stream_counts')).toBe(applied);
      expect(projections).toEqual([
        { name: 'stream_counts', position: head, lagEvents: 0, lagSeconds: 0, failedEvents: 0 },
      ]);
    });
  });

  describe('a running runner', () => {
    it('applies each new event before the in-process wait returns', async () => {
      const f = await given();
      const runner = f.startRunner({ idlePollMs: 60_000 });
      for (let event = 1; event <= 20; event += 1) {
        const position = await f.append('L-1', [counted()]);
        expect(await runner.readModelWaiter.waitFor(position, 2_000)).toBe(true);
        expect(await rows(f)).toEqual([{ stream_id: 'L-1', events: event }]);
      }
    });

    it('is woken by the store when nobody waits', async () => {
      const f = await given();
      f.startRunner({ idlePollMs: 60_000 });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const position = await f.append('W-1', [counted()]);

      await eventually(async () => (await f.checkpointOf('stream_counts')) === position);
      expect(await rows(f)).toEqual([{ stream_id: 'W-1', events: 1 }]);
    });

    it('applies an event an older open transaction held back as soon as that transaction ends, not at the idle poll', async () => {
      const f = await given();
      f.startRunner({ idlePollMs: 60_000 });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const older = new pg.Client({ connectionString: f.databaseUrl });
      await older.connect();
      try {
        await older.query('BEGIN');
        await older.query('SELECT pg_current_xact_id()');
        const position = await f.append('H-1', [counted()]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(await f.checkpointOf('stream_counts')).not.toBe(position);

        await older.query('COMMIT');
        const ended = performance.now();
        await eventually(async () => (await f.checkpointOf('stream_counts')) === position);

        expect(performance.now() - ended).toBeLessThan(1_000);
        expect(await rows(f)).toEqual([{ stream_id: 'H-1', events: 1 }]);
      } finally {
        await older.end();
      }
    });
  });

  describe('a read model re-applied from an older checkpoint', () => {
    it('ends with exactly the same rows (updates are idempotent by position)', async () => {
      const f = await given();
      const middle = await f.append('R-1', [counted(), counted()]);
      await f.append('R-2', [counted()]);
      const head = await f.append('R-1', [counted()]);
      const first = await caughtUp(f, head);
      await first.stop();
      const before = await rows(f);

      await f.pool.query('UPDATE projection_checkpoints SET position = $1', [middle.toString()]);
      await caughtUp(f, head);

      expect(await rows(f)).toEqual(before);
      expect(before).toEqual([
        { stream_id: 'R-1', events: 3 },
        { stream_id: 'R-2', events: 1 },
      ]);
    });
  });

  describe('a batch interrupted half-way', () => {
    it('keeps neither rows nor checkpoint when the connection dies, then applies it once on retry', async () => {
      let calls = 0;
      let releaseRetry: () => void = () => {};
      const retryMayProceed = new Promise<void>((resolve) => {
        releaseRetry = resolve;
      });
      let retryStarted: () => void = () => {};
      const retryIsWaiting = new Promise<void>((resolve) => {
        retryStarted = resolve;
      });
      const f = await given({
        async beforeWrite() {
          calls += 1;
          if (calls === 2) {
            retryStarted();
            await retryMayProceed;
          }
        },
        async afterWrite(_events, client) {
          if (calls === 1) await client.query('SELECT pg_terminate_backend(pg_backend_pid())');
        },
      });
      await f.append('C-1', [counted(), counted()]);
      const head = await f.append('C-2', [counted()]);

      const runner = f.startRunner();
      await retryIsWaiting;
      expect(await rows(f)).toEqual([]);
      expect(await f.checkpointOf('stream_counts')).toBe(-1n);

      releaseRetry();
      expect(await runner.readModelWaiter.waitFor(head, 10_000)).toBe(true);
      expect(await rows(f)).toEqual([
        { stream_id: 'C-1', events: 2 },
        { stream_id: 'C-2', events: 1 },
      ]);
    });

    it('does not double the rows a throwing projection wrote before it threw', async () => {
      let thrown = false;
      const f = await given({
        async afterWrite(events: readonly RecordedEvent[]) {
          if (!thrown && events.length > 1) {
            thrown = true;
            throw new Error('crash after writing the batch rows');
          }
        },
      });
      await f.append('D-1', [counted(), counted(), counted()]);
      const head = await f.append('D-2', [counted()]);

      await caughtUp(f, head);

      expect(thrown).toBe(true);
      expect(await rows(f)).toEqual([
        { stream_id: 'D-1', events: 3 },
        { stream_id: 'D-2', events: 1 },
      ]);
      const { rows: failures } = await f.pool.query('SELECT * FROM projection_failures');
      expect(failures).toEqual([]);
    });
  });
});
