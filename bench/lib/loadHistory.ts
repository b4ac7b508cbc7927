import type { EventStore, ExpectedRevision, NewEvent } from '@issuer/events';
import type pg from 'pg';
import { type CompanyHistory, companyHistory, EVENTS_PER_COMPANY } from './eventMix';

export interface LoadedHistory {
  events: number;
  companies: number;
  /** Appends (through the store) or transactions (bulk). */
  appends: number;
  seconds: number;
  /** One user stream and how many events it holds, for checks through the store. */
  sample: { streamId: string; events: number };
}

/** Companies written together; their user streams interleave in the global order. */
const WINDOW = 250;
/** User events per append after registration: a few appends per user, interleaved by window. */
const USER_CHUNK = 30;
const CONCURRENCY = 4;

/**
 * Stores about `targetEvents` events through `appendToStream` (whole companies, so rounded up to
 * 100): registrations first, then each user's history in chunks, window by window, so a batch of
 * the global order touches hundreds of users and companies as a real log would.
 */
export async function loadHistory(
  store: EventStore,
  targetEvents: number,
  onProgress: (events: number) => void = () => {},
): Promise<LoadedHistory> {
  const started = performance.now();
  const companies = Math.ceil(targetEvents / EVENTS_PER_COMPANY);
  const at = new Date('2025-06-01T09:00:00.000Z');
  let events = 0;
  let appends = 0;
  let lastReport = 0;
  let companyZero: CompanyHistory | undefined;
  const append = async (streamId: string, batch: NewEvent[], expected: ExpectedRevision) => {
    const result = await store.appendToStream(streamId, batch, { expectedRevision: expected });
    events += batch.length;
    appends += 1;
    if (events - lastReport >= 100_000) {
      lastReport = events;
      onProgress(events);
    }
    return result.nextExpectedRevision;
  };
  for (let first = 0; first < companies; first += WINDOW) {
    const window = Array.from({ length: Math.min(WINDOW, companies - first) }, (_, i) =>
      companyHistory(first + i, at),
    );
    companyZero ??= window[0];
    await inParallel(
      window.flatMap((history) => history.registration),
      (stream) => append(stream.streamId, stream.events, 'no_stream'),
    );
    const revisions = new Map(window.map((history) => [history.userStreamId, 0n]));
    for (let offset = 0; offset < (window[0]?.userEvents.length ?? 0); offset += USER_CHUNK) {
      await inParallel(window, async (history) => {
        const chunk = history.userEvents.slice(offset, offset + USER_CHUNK);
        if (chunk.length === 0) return;
        const expected = revisions.get(history.userStreamId) ?? 0n;
        revisions.set(history.userStreamId, await append(history.userStreamId, chunk, expected));
      });
    }
  }
  return {
    events,
    companies,
    appends,
    seconds: (performance.now() - started) / 1000,
    sample: sampleOf(companyZero),
  };
}

async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<unknown>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next];
      next += 1;
      if (item !== undefined) await work(item);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/**
 * The fast way to the same history, for quick or large runs (`--load bulk`): one INSERT per window
 * straight into the PostgreSQL store's tables, every event of the window interleaved one by one.
 * It writes what `es_append` writes (eventstore/src/postgres/postgresSchema.ts): positions
 * `(xid << 20) + ordinal` of the loading transaction and stream revisions from 0 (a stream's
 * revision is that of its last event). So it depends on that schema; the caller
 * checks the result through the real store afterwards (`verifyThroughStore`).
 */
export async function bulkLoadHistory(
  pool: pg.Pool,
  targetEvents: number,
  onProgress: (events: number) => void = () => {},
): Promise<LoadedHistory> {
  const started = performance.now();
  const companies = Math.ceil(targetEvents / EVENTS_PER_COMPANY);
  const at = new Date('2025-06-01T09:00:00.000Z');
  let events = 0;
  let transactions = 0;
  let lastReport = 0;
  let companyZero: CompanyHistory | undefined;
  for (let first = 0; first < companies; first += WINDOW) {
    const window = Array.from({ length: Math.min(WINDOW, companies - first) }, (_, i) =>
      companyHistory(first + i, at),
    );
    companyZero ??= window[0];
    const rows = interleave(window);
    await insertBulkRows(pool, rows);
    transactions += 1;
    events += rows.length;
    if (events - lastReport >= 100_000) {
      lastReport = events;
      onProgress(events);
    }
  }
  return {
    events,
    companies,
    appends: transactions,
    seconds: (performance.now() - started) / 1000,
    sample: sampleOf(companyZero),
  };
}

/**
 * Rows straight into the PostgreSQL store's table in one transaction, as `es_append` writes them:
 * positions `(xid << 20) + ord`, so `ord` orders the rows within the transaction.
 */
export async function insertBulkRows(pool: pg.Pool, rows: readonly BulkRow[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO es_events (position, stream_id, revision, event_id, type, data, metadata, recorded_at)
       SELECT (pg_current_xact_id()::text::bigint << 20) + r.ord, r.stream_id, r.revision, r.id,
              r.type, r.data, r.metadata, date_trunc('milliseconds', now())
         FROM jsonb_to_recordset($1::jsonb) AS r(
           ord bigint, stream_id text, revision bigint, id uuid, type text, data jsonb, metadata jsonb)`,
      [JSON.stringify(rows)],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

export interface BulkRow {
  ord: number;
  stream_id: string;
  revision: number;
  id: string;
  type: string;
  data: unknown;
  metadata: NewEvent['metadata'];
}

/** Registrations first, then the users' events one at a time, round robin over the window. */
function interleave(window: readonly CompanyHistory[]): BulkRow[] {
  const rows: BulkRow[] = [];
  const push = (streamId: string, revision: number, event: NewEvent) => {
    rows.push({
      ord: rows.length,
      stream_id: streamId,
      revision,
      id: event.id,
      type: event.type,
      data: event.data,
      metadata: event.metadata,
    });
  };
  for (const history of window)
    for (const stream of history.registration)
      for (const [revision, event] of stream.events.entries())
        push(stream.streamId, revision, event);
  const longest = Math.max(0, ...window.map((history) => history.userEvents.length));
  for (let n = 0; n < longest; n += 1)
    for (const history of window) {
      const event = history.userEvents[n];
      // Revision 0 of a user stream is its UserRegistered, written with the registrations.
      if (event) push(history.userStreamId, n + 1, event);
    }
  return rows;
}

function sampleOf(history: CompanyHistory | undefined): LoadedHistory['sample'] {
  if (!history) throw new Error('nothing was loaded');
  return { streamId: history.userStreamId, events: history.userEvents.length + 1 };
}

/**
 * Reads the sample stream back through the store and appends one more event at its exact
 * expected revision: proves the stored history is one the adapter reads and writes on.
 */
export async function verifyThroughStore(
  store: EventStore,
  sample: LoadedHistory['sample'],
  extra: NewEvent,
): Promise<void> {
  const stored = await store.readStream(sample.streamId);
  const inOrder = stored.every(
    (event, i) =>
      event.revision === BigInt(i) && (i === 0 || event.position > (stored[i - 1]?.position ?? 0n)),
  );
  if (stored.length !== sample.events || !inOrder)
    throw new Error(
      `stored history check failed: ${sample.streamId} has ${stored.length} events (expected ${sample.events}), in order: ${inOrder}`,
    );
  await store.appendToStream(sample.streamId, [extra], {
    expectedRevision: BigInt(sample.events - 1),
  });
}
