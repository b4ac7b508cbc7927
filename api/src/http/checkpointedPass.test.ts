import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsHarness, startAccountsHarness } from '../auth/testing/accountsHarness';
import { checkpointedPass } from './checkpointedPass';
import { toNewEvents } from './commands';

let h: AccountsHarness;
beforeAll(async () => {
  h = await startAccountsHarness();
  await h.pool.query(
    'CREATE TABLE IF NOT EXISTS process_checkpoints (name text PRIMARY KEY, position bigint NOT NULL)',
  );
});
afterAll(() => h?.close());

async function appendEvents(count: number) {
  const metadata = {
    companyId: 'co-ticks',
    userId: null,
    correlationId: randomUUID(),
    causationId: null,
    occurredAt: new Date().toISOString(),
    schemaVersion: 1,
  };
  const events = Array.from({ length: count }, (_, index) => ({ type: 'Ticked', data: { index } }));
  const { position } = await h.store.appendToStream(
    `Tick-${randomUUID()}`,
    toNewEvents(events, metadata),
    { expectedRevision: 'any' },
  );
  // Readers see an event once every older transaction on the server has ended (shared server).
  await expect
    .poll(async () => (await h.store.headPosition()) ?? -1n, { timeout: 10_000 })
    .toBe(position);
}

/** The last event committed so far (the readers' visible head can lag it for a moment). */
async function lastCommitted() {
  const { rows } = await h.pool.query<{ head: string | null }>(
    'SELECT max(position)::text AS head FROM es_events',
  );
  return BigInt(rows[0]?.head ?? '-1');
}

/** A process of its own, its checkpoint at `position`; answers its name. */
async function newProcessAt(position: bigint): Promise<string> {
  const name = `test-${randomUUID()}`;
  await h.pool.query('INSERT INTO process_checkpoints (name, position) VALUES ($1, $2)', [
    name,
    String(position),
  ]);
  return name;
}

const checkpointOf = async (name: string) =>
  BigInt(
    (
      await h.pool.query<{ position: string }>(
        'SELECT position::text FROM process_checkpoints WHERE name = $1',
        [name],
      )
    ).rows[0]?.position ?? '-2',
  );

describe('a checkpointed pass over the log', () => {
  it('keeps the batches it finished when a later one fails, and resumes after them', async () => {
    const name = await newProcessAt(await lastCommitted());
    await appendEvents(25);
    const seen: bigint[] = [];
    const failingThirdBatch = checkpointedPass(h, name, 10, async (events) => {
      if (seen.length === 20) throw new Error('the process dies');
      seen.push(...events.map((event) => event.position));
      return events.length;
    });
    await expect(failingThirdBatch).rejects.toThrow('the process dies');
    // The two finished batches stay done: the checkpoint is at the 20th event, not back at the start.
    expect(await checkpointOf(name)).toBe(seen[19]);

    const resumed: bigint[] = [];
    const handled = await checkpointedPass(h, name, 10, async (events) => {
      resumed.push(...events.map((event) => event.position));
      return events.length;
    });
    expect(handled).toBe(5);
    expect(resumed[0]).toBeGreaterThan(seen[19] ?? 0n);
    expect(await checkpointOf(name)).toBe(resumed.at(-1));
  });

  it('skips its turn while another process holds the checkpoint', async () => {
    const name = await newProcessAt(-1n);
    const holder = await h.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM process_checkpoints WHERE name = $1 FOR UPDATE', [name]);
      let called = false;
      const handled = await checkpointedPass(h, name, 10, async () => {
        called = true;
        return 1;
      });
      expect({ handled, called }).toEqual({ handled: 0, called: false });
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
  });

  it('with waitForTurn, waits for the other process, then handles what it had not', async () => {
    const name = await newProcessAt(await lastCommitted());
    await appendEvents(3);
    const holder = await h.pool.connect();
    let settled = false;
    let waiting: Promise<number> | undefined;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM process_checkpoints WHERE name = $1 FOR UPDATE', [name]);
      waiting = checkpointedPass(h, name, 10, async (events) => events.length, {
        waitForTurn: true,
      });
      const settle = () => {
        settled = true;
      };
      waiting.then(settle, settle);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled).toBe(false);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    expect(await waiting).toBe(3);
  });
});
