import type { EventStore, ExpectedRevision, NewEvent } from '@issuer/events';
import { companyHistory, EVENTS_PER_COMPANY } from './eventMix';

export interface LoadedHistory {
  events: number;
  companies: number;
  appends: number;
  seconds: number;
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
  return { events, companies, appends, seconds: (performance.now() - started) / 1000 };
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
