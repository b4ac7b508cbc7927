import {
  type AllStreamSubscription,
  ANY,
  type AppendExpectedRevision,
  BACKWARDS,
  type CurrentRevision,
  END,
  type RecordedEvent as EsdbRecordedEvent,
  EventStoreDBClient,
  excludeSystemEvents,
  type JSONEventData,
  type JSONType,
  NO_STREAM,
  type Position,
  type ReadPosition,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import {
  type AllSubscription,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeToAllOptions,
  WrongExpectedRevisionError,
} from '@issuer/events';

const DEFAULT_READ_ALL_COUNT = 1000;
/** Backward page size when looking for the newest non-system event. */
const HEAD_PAGE_SIZE = 32;
/** Page size of a stream read "as of" a time, which stops after the page that passes it. */
const AS_OF_PAGE_SIZE = 256n;

// ---- pure mappings (exported for unit tests) -------------------------------------------------

export function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'any':
      return ANY;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return expected;
  }
}

/** The client reports a missing stream as 'no_stream' (or, from older servers, -1). */
export function toActualRevision(current: CurrentRevision): bigint | undefined {
  if (current === NO_STREAM || current < 0n) return undefined;
  return current;
}

/** Our error from the client's WrongExpectedVersionError; the expected revision is the one we sent. */
export function toWrongExpectedRevisionError(
  streamId: string,
  expected: ExpectedRevision,
  error: WrongExpectedVersionError,
): WrongExpectedRevisionError {
  return new WrongExpectedRevisionError(streamId, expected, toActualRevision(error.actualVersion));
}

/**
 * Where an EventStoreDB read of $all starts for "strictly after `after`". Since 20.x every event is
 * its own committed prepare record, so its commit and prepare positions are equal; the read is
 * inclusive, so callers drop the event at exactly `after` (see {@link isAfter}).
 */
export function readPositionAfter(after: bigint | undefined): ReadPosition {
  return after === undefined ? START : { commit: after, prepare: after };
}

/** True when `position` lies strictly after the exclusive lower bound `after`. */
export function isAfter(position: Position, after: Position | bigint | undefined): boolean {
  if (after === undefined) return true;
  if (typeof after === 'bigint') return position.commit > after;
  return (
    position.commit > after.commit ||
    (position.commit === after.commit && position.prepare > after.prepare)
  );
}

/** System events: '$'-prefixed types ($metadata, $>, $statsCollected…) or '$'-prefixed streams. */
export function isSystemEvent(event: { streamId: string; type: string }): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

/**
 * The commit position an append reports, or undefined when it reports none: the client leaves it
 * out, and a server without one may send -1, which arrives as 2^64 - 1 through the unsigned field.
 */
export function reportedCommitPosition(position: Position | undefined): bigint | undefined {
  if (position === undefined || position.commit < 0n || position.commit >= 2n ** 63n)
    return undefined;
  return position.commit;
}

export function toEventData(event: NewEvent): JSONEventData {
  return {
    id: event.id,
    contentType: 'application/json',
    type: event.type,
    // The client stringifies whatever it gets; JSONType is only its compile-time description.
    data: event.data as JSONType,
    metadata: { ...event.metadata },
  };
}

function toEventMetadata(raw: unknown): EventMetadata {
  if (
    typeof raw === 'object' &&
    raw !== null &&
    !Array.isArray(raw) &&
    !(raw instanceof Uint8Array)
  )
    return raw as EventMetadata;
  // Written by something other than this adapter: keep the event readable instead of failing a
  // projector on it; the empty company id matches no tenant.
  return {
    companyId: '',
    userId: null,
    correlationId: '',
    causationId: null,
    occurredAt: new Date(0).toISOString(),
    schemaVersion: 0,
  };
}

export function toRecordedEvent(event: EsdbRecordedEvent): RecordedEvent {
  if (event.position === undefined)
    throw new Error(
      `EventStoreDB returned event ${event.id} of ${event.streamId} without its position; the adapter needs EventStoreDB 22.6 or later`,
    );
  return {
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: toEventMetadata(event.metadata),
    streamId: event.streamId,
    revision: event.revision,
    position: event.position.commit,
    // db-client 6 converts the server's .NET ticks to a Date (millisecond precision).
    recordedAt: event.created,
  };
}

// ---- adapter ---------------------------------------------------------------------------------

/**
 * A note on reads: every read is iterated to its end, never left with `break` or `return`. An
 * abandoned read leaves the client's gRPC call unconsumed; it never finishes, and the client's
 * dispose() (our close()) waits for it forever. Reads are therefore bounded by maxCount and drained.
 */
export class EventStoreDbEventStore implements EventStore {
  readonly #client: EventStoreDBClient;

  /** `connectionString`: `esdb://host:2113?tls=false` or a cluster `esdb://n1:2113,n2:2113,n3:2113?tls=false`. */
  constructor(connectionString: string) {
    this.#client = EventStoreDBClient.connectionString(connectionString);
  }

  async appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    const { expectedRevision } = options;
    try {
      const result = await this.#client.appendToStream(streamId, events.map(toEventData), {
        expectedRevision: toEsdbExpectedRevision(expectedRevision),
      });
      // For a single event the reported position is that event's own (an idempotent repeat is
      // answered like the original write). For a batch, the API does not pin down which of its
      // records the position belongs to, and readers compare it with the last event's position, so
      // read that event's. Also when the server reports none (older servers on a repeat; empty).
      const reported = events.length === 1 ? reportedCommitPosition(result.position) : undefined;
      const position =
        reported ?? (await this.#positionAt(streamId, result.nextExpectedRevision)) ?? 0n;
      return { nextExpectedRevision: result.nextExpectedRevision, position };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError)
        throw toWrongExpectedRevisionError(streamId, expectedRevision, error);
      throw error;
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const { toRevision, recordedUntil } = options;
    // Mapped after the reads: a mapping error must not leave a read unconsumed.
    const events: EsdbRecordedEvent[] = [];
    let next = options.fromRevision ?? 0n;
    // Every read is consumed to its end (see the note on reads at the top of the class); a read
    // "as of" a time goes page by page so that it stops soon after passing that time.
    for (;;) {
      const remaining = toRevision === undefined ? undefined : toRevision - next + 1n;
      if (remaining !== undefined && remaining <= 0n) return events.map(toRecordedEvent);
      const pageSize =
        recordedUntil === undefined
          ? remaining
          : remaining === undefined || remaining > AS_OF_PAGE_SIZE
            ? AS_OF_PAGE_SIZE
            : remaining;
      const pageStart = next;
      let received = 0n;
      let passedUntil = false;
      try {
        for await (const resolved of this.#client.readStream(streamId, {
          fromRevision: next,
          ...(pageSize === undefined ? {} : { maxCount: pageSize }),
        })) {
          received += 1n;
          const event = resolved.event;
          if (event === undefined || passedUntil) continue;
          if (recordedUntil !== undefined && event.created > recordedUntil) {
            passedUntil = true;
            continue;
          }
          events.push(event);
          next = event.revision + 1n;
        }
      } catch (error) {
        if (error instanceof StreamNotFoundError) return [];
        throw error;
      }
      if (passedUntil || pageSize === undefined || received < pageSize || next === pageStart)
        return events.map(toRecordedEvent);
    }
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const maxCount = options.maxCount ?? DEFAULT_READ_ALL_COUNT;
    const events: EsdbRecordedEvent[] = [];
    // $all reads are inclusive: each page starts at the last position already seen and skips it.
    let lowerBound: Position | bigint | undefined = options.after;
    let from = readPositionAfter(options.after);
    while (events.length < maxCount) {
      const pageSize = maxCount - events.length + 1;
      let received = 0;
      let last: Position | undefined;
      for await (const resolved of this.#client.readAll({
        fromPosition: from,
        maxCount: pageSize,
      })) {
        received += 1;
        const event = resolved.event;
        if (event === undefined) continue;
        last = event.position;
        if (!isAfter(event.position, lowerBound) || isSystemEvent(event)) continue;
        if (events.length < maxCount) events.push(event);
      }
      if (received < pageSize || last === undefined) break;
      lowerBound = last;
      from = last;
    }
    return events.map(toRecordedEvent);
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): AllSubscription {
    const subscription = this.#client.subscribeToAll({
      fromPosition: readPositionAfter(options.after),
      filter: excludeSystemEvents(),
    });
    return new EventStoreDbAllSubscription(subscription, options.after);
  }

  async headPosition(): Promise<bigint | undefined> {
    let from: Position | typeof END = END;
    for (;;) {
      let received = 0;
      let last: Position | undefined;
      let head: bigint | undefined;
      for await (const resolved of this.#client.readAll({
        direction: BACKWARDS,
        fromPosition: from,
        maxCount: HEAD_PAGE_SIZE,
      })) {
        received += 1;
        const event = resolved.event;
        if (event === undefined || head !== undefined) continue;
        // Backward reads are exclusive of `from`, but guard anyway against re-reading it.
        if (last === undefined && from !== END && !isBefore(event.position, from)) continue;
        last = event.position;
        if (!isSystemEvent(event)) head = event.position.commit;
      }
      if (head !== undefined) return head;
      if (received < HEAD_PAGE_SIZE || last === undefined) return undefined;
      from = last;
    }
  }

  async close(): Promise<void> {
    await this.#client.dispose();
  }

  /** The commit position of the event at `revision`, or undefined when there is none. */
  async #positionAt(streamId: string, revision: bigint): Promise<bigint | undefined> {
    if (revision < 0n) return undefined;
    let position: bigint | undefined;
    try {
      for await (const resolved of this.#client.readStream(streamId, {
        fromRevision: revision,
        maxCount: 1,
      })) {
        position ??= resolved.event?.position?.commit;
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return undefined;
      throw error;
    }
    return position;
  }
}

function isBefore(position: Position, bound: Position): boolean {
  return (
    position.commit < bound.commit ||
    (position.commit === bound.commit && position.prepare < bound.prepare)
  );
}

/** Exported for tests; obtain one through {@link EventStoreDbEventStore.subscribeToAll}. */
export class EventStoreDbAllSubscription implements AllSubscription {
  readonly #subscription: AllStreamSubscription;
  readonly #after: bigint | undefined;
  #closed = false;

  constructor(subscription: AllStreamSubscription, after: bigint | undefined) {
    this.#subscription = subscription;
    this.#after = after;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    try {
      for await (const resolved of this.#subscription) {
        if (this.#closed) return;
        const event = resolved.event;
        // The server filter drops '$' types; '$' streams and the checkpoint itself are dropped here.
        if (event === undefined || isSystemEvent(event) || !isAfter(event.position, this.#after))
          continue;
        yield toRecordedEvent(event);
      }
    } catch (error) {
      // Destroying the stream on close() ends a pending read with a premature-close error.
      if (this.#closed) return;
      throw error;
    } finally {
      // A reader that stops iterating (break, an error) ends the subscription on the server too.
      await this.close();
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#subscription.unsubscribe();
    // Cancelling the gRPC call does not end the piped Readable, so end it here for any reader.
    this.#subscription.destroy();
  }
}
