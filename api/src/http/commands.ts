import { randomUUID } from 'node:crypto';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '@issuer/events';
import type { Context } from 'hono';
import { ifMatchRevision, preconditionFailed, setETag } from './etag';
import type { AppEnv, Caller } from './types';

/** What a decider returns: an event without id or metadata, which the pipeline adds. */
export interface DecidedEvent {
  type: string;
  data: unknown;
  /** Version of this event type's data shape; 1 when omitted. */
  schemaVersion?: number;
}

/** Pure write-side logic of one stream: no I/O, no clock, no id generation. */
export interface Decider<State, Command, Event extends DecidedEvent> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  /** Throws a DomainError when the command breaks a rule; an empty list means "nothing to do". */
  decide(command: Command, state: State): Event | readonly Event[];
  /** Brings stored events of older shapes to the current one; stored events are trusted as-is when omitted. */
  upcast?(event: RecordedEvent): Event;
}

export interface MetadataOptions {
  /**
   * Only for commands whose tenant is not the caller's own company: registration (no token yet,
   * the id was just generated) and the operator acting on the company named in the path.
   * Never take it from the body. Defaults to the verified token's company.
   */
  companyId?: string;
  /** The acting user when there is no token yet (registration). Defaults to the token's user. */
  userId?: string;
  /** Defaults to the request id: the HTTP command is what caused the events. */
  causationId?: string;
}

export interface CommandOptions<State, Command, Event extends DecidedEvent>
  extends MetadataOptions {
  streamId: string;
  decider: Decider<State, Command, Event>;
  command: Command;
  /**
   * Pins the expected revision (e.g. `no_stream` to create). Without it the stream's current
   * revision is used and a concurrent change is retried: re-load, re-decide. An `If-Match`
   * header pins it too, and a mismatch answers 412.
   */
  expectedRevision?: ExpectedRevision;
  /** For the other streams of a multi-stream command: the client's If-Match names one stream's version. */
  ignoreIfMatch?: boolean;
}

export interface CommandOutcome<State, Event extends DecidedEvent> {
  /** State after the new events. */
  state: State;
  /** The appended events (empty when the decider found nothing to do). */
  events: Event[];
  /** Stream revision after the command; undefined when the stream still does not exist. */
  nextExpectedRevision: bigint | undefined;
  /** Global position of the last appended event; undefined when nothing was appended. */
  position: bigint | undefined;
}

export type ReadModelsState = 'up-to-date' | 'catching-up';

const maxAttempts = 4;

/**
 * The whole pipeline for a command on one stream: load, decide, append (retrying conflicts),
 * wait for the read models, and set `ETag` (plus `X-Read-Models: catching-up` when the wait hit
 * its bound; put `readModels` in the body too if the client should show it).
 */
export async function executeCommand<State, Command, Event extends DecidedEvent>(
  c: Context<AppEnv>,
  options: CommandOptions<State, Command, Event>,
): Promise<CommandOutcome<State, Event> & { readModels: ReadModelsState }> {
  const outcome = await decideAndAppend(c, options);
  const readModels = await waitForReadModels(c, outcome.position);
  if (outcome.nextExpectedRevision !== undefined) setETag(c, outcome.nextExpectedRevision);
  return { ...outcome, readModels };
}

/**
 * Load, decide and append for one stream, retrying when another request changed the stream in
 * between (unless the revision is pinned). For commands over several streams: call it once per
 * stream, then `waitForReadModels` once with the highest position.
 */
export async function decideAndAppend<State, Command, Event extends DecidedEvent>(
  c: Context<AppEnv>,
  options: CommandOptions<State, Command, Event>,
): Promise<CommandOutcome<State, Event>> {
  const seenRevision = options.ignoreIfMatch ? undefined : ifMatchRevision(c);
  for (let attempt = 1; ; attempt++) {
    const loaded = await loadState(c, options.streamId, options.decider);
    if (seenRevision !== undefined && seenRevision !== loaded.revision) {
      throw preconditionFailed(loaded.revision);
    }
    const events = asList(options.decider.decide(options.command, loaded.state));
    const state = events.reduce((next, event) => options.decider.evolve(next, event), loaded.state);
    if (events.length === 0) {
      return { state, events, nextExpectedRevision: loaded.revision, position: undefined };
    }
    const expectedRevision = options.expectedRevision ?? loaded.revision ?? 'no_stream';
    try {
      const appended = await appendEvents(c, options.streamId, events, {
        ...options,
        expectedRevision,
      });
      return { state, events, ...appended };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (seenRevision !== undefined) throw preconditionFailed(error.actual);
      if (options.expectedRevision !== undefined || attempt >= maxAttempts) throw error;
      await pause(attempt);
    }
  }
}

/** Folds a stream into the decider's state; `revision` is undefined when the stream does not exist. */
export async function foldStream<State, Command, Event extends DecidedEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
): Promise<{ state: State; revision: bigint | undefined }> {
  const recorded = await store.readStream(streamId);
  let state = decider.initialState();
  for (const event of recorded) {
    // Without an upcaster, the stream holds exactly what this decider's decide() produced.
    state = decider.evolve(state, decider.upcast?.(event) ?? (event as unknown as Event));
  }
  return { state, revision: recorded.at(-1)?.revision };
}

export function loadState<State, Command, Event extends DecidedEvent>(
  c: Context<AppEnv>,
  streamId: string,
  decider: Decider<State, Command, Event>,
): Promise<{ state: State; revision: bigint | undefined }> {
  return foldStream(c.var.deps.store, streamId, decider);
}

/** Gives decided events their ids and metadata (a type's own schema version wins). */
export function toNewEvents(events: readonly DecidedEvent[], metadata: EventMetadata): NewEvent[] {
  return events.map(({ type, data, schemaVersion }) => ({
    id: randomUUID(),
    type,
    data,
    metadata: { ...metadata, schemaVersion: schemaVersion ?? metadata.schemaVersion },
  }));
}

/**
 * Appends decided events with ids and metadata. A wrong expected revision throws
 * WrongExpectedRevisionError (409 unless the caller handles it, e.g. as "email already in use").
 */
export async function appendEvents(
  c: Context<AppEnv>,
  streamId: string,
  events: readonly DecidedEvent[],
  options: MetadataOptions & { expectedRevision: ExpectedRevision },
): Promise<AppendResult> {
  if (c.req.header('Idempotency-Key') !== undefined && !c.var.idempotencyKeyClaimed) {
    // A route that forgot the middleware would silently apply a retried payment twice.
    throw new Error(`${c.req.method} ${c.req.path} takes an Idempotency-Key but lacks idempotent`);
  }
  const newEvents = toNewEvents(events, eventMetadata(c, options));
  return c.var.deps.store.appendToStream(streamId, newEvents, {
    expectedRevision: options.expectedRevision,
  });
}

/** Metadata for events of this request: tenant and actor from the verified token, ids from the request. */
export function eventMetadata(c: Context<AppEnv>, options: MetadataOptions = {}): EventMetadata {
  const caller: Caller | undefined = c.var.caller;
  const companyId = options.companyId ?? caller?.companyId;
  if (companyId === undefined) {
    throw new Error(
      `${c.req.method} ${c.req.path}: a command without a caller must name its company`,
    );
  }
  return {
    companyId,
    userId: options.userId ?? caller?.userId ?? null,
    correlationId: c.var.requestId,
    causationId: options.causationId ?? c.var.requestId,
    occurredAt: c.var.deps.clock().toISOString(),
    schemaVersion: 1,
  };
}

/**
 * Read-your-writes: waits (bounded) until the read models applied `position`. When the bound is
 * hit the command still succeeded: this sets `X-Read-Models: catching-up` and says so.
 */
export async function waitForReadModels(
  c: Context<AppEnv>,
  position: bigint | undefined,
): Promise<ReadModelsState> {
  if (position === undefined) return 'up-to-date';
  const { readModels, config, logger } = c.var.deps;
  let caughtUp = false;
  try {
    caughtUp = await readModels.waitFor(position, config.readYourWritesTimeoutMs);
  } catch (error) {
    // The events are stored; failing the request now would invite a duplicate retry.
    logger.warn({ err: error, requestId: c.var.requestId }, 'waiting for read models failed');
  }
  if (caughtUp) return 'up-to-date';
  c.header('X-Read-Models', 'catching-up');
  return 'catching-up';
}

export function asList<Event>(decided: Event | readonly Event[]): Event[] {
  return Array.isArray(decided) ? [...decided] : [decided as Event];
}

/** Short random pause so retrying writers do not collide again in lockstep. */
function pause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempt));
}
