/**
 * The one event-store contract. Command handlers, projectors and publishers depend on this
 * interface only; `@issuer/eventstore` holds the PostgreSQL and EventStoreDB adapters.
 * Semantics follow EventStoreDB: revisions start at 0 within a stream, positions are global and
 * strictly increasing in the order readers see events.
 */

/** `no_stream`: the stream must not exist. `stream_exists`: it must. `any`: no check. A bigint: the stream's last revision must be exactly this. */
export type ExpectedRevision = 'no_stream' | 'any' | 'stream_exists' | bigint;

export interface EventMetadata {
  companyId: string;
  userId: string | null;
  correlationId: string;
  causationId: string | null;
  /** ISO-8601 time the command was decided (from the command, never the decider's clock). */
  occurredAt: string;
  schemaVersion: number;
}

export interface NewEvent<Type extends string = string, Data = unknown> {
  /** UUID chosen by the writer; re-appending the same id at the same place is a no-op. */
  id: string;
  type: Type;
  data: Data;
  metadata: EventMetadata;
}

export interface RecordedEvent<Type extends string = string, Data = unknown>
  extends NewEvent<Type, Data> {
  streamId: string;
  revision: bigint;
  position: bigint;
  recordedAt: Date;
}

export interface AppendResult {
  /** Revision of the last event now in the stream: pass it as the next expected revision. */
  nextExpectedRevision: bigint;
  /** Global position of the last event of this append (of the stored ones, if it was a repeat). */
  position: bigint;
}

export interface ReadStreamOptions {
  /** First revision to return (inclusive). */
  fromRevision?: bigint;
  /** Last revision to return (inclusive). */
  toRevision?: bigint;
  /** Only events recorded at or before this instant (compliance "as of"). */
  recordedUntil?: Date;
}

/** Parts of a recorded event besides its type, data and position, which every read returns. */
export type EventPart = 'id' | 'metadata' | 'streamId' | 'revision' | 'recordedAt';

export const eventParts: readonly EventPart[] = [
  'id',
  'metadata',
  'streamId',
  'revision',
  'recordedAt',
];

export interface ReadAllOptions {
  /** Return events strictly after this position; omit to start at the beginning. */
  after?: bigint;
  /** Upper bound on the number of events returned (default 1000). */
  maxCount?: number;
  /**
   * The parts to read (every part when omitted): the same for every event, or by event type
   * (a type left out gets none). A store may leave the others out, and then touching one
   * throws: it lets a rebuild fetch and decode only what its read models use.
   */
  parts?: readonly EventPart[] | PartsByType;
}

/** Event type → the parts to read of events of that type. */
export type PartsByType = Readonly<Record<string, readonly EventPart[]>>;

export interface SubscribeToAllOptions {
  /** Resume strictly after this position (a stored checkpoint); omit to start at the beginning. */
  after?: bigint;
}

/** Catch-up then live: yields every event after `after`, in global order, until closed. */
export interface AllSubscription extends AsyncIterable<RecordedEvent> {
  close(): Promise<void>;
}

export interface EventStore {
  appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult>;
  /** Events of one stream in revision order; an empty list when the stream does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToAll(options?: SubscribeToAllOptions): AllSubscription;
  /** Position of the newest event readers can see, or undefined when the store is empty. */
  headPosition(): Promise<bigint | undefined>;
  /**
   * Optional: positions of events committed from now on, as this process learns of them, without
   * reading the events (a reader may not see one yet: an older transaction can hold it back).
   * Ends when `abort` fires or the store closes. Stores without it are watched by subscription.
   */
  watchCommitted?(abort: AbortSignal): AsyncIterable<bigint>;
  close(): Promise<void>;
}

/** The stream's actual revision did not match the expected one (EventStoreDB's WrongExpectedVersion). */
export class WrongExpectedRevisionError extends Error {
  override readonly name = 'WrongExpectedRevisionError';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    /** The stream's last revision, or undefined when it does not exist. */
    readonly actual: bigint | undefined,
  ) {
    super(
      `Stream ${streamId}: expected revision ${String(expected)}, actual ${actual === undefined ? 'no_stream' : String(actual)}`,
    );
  }
}
