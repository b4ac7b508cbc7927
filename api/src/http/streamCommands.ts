import { randomUUID } from 'node:crypto';
import { type EventMetadata, type EventStore, WrongExpectedRevisionError } from '@issuer/events';
import { type DecidedEvent, type Decider, foldStream, toNewEvents } from './commands';

/** What caused a command, for its events' metadata (a request id, a provider event id). */
export interface CommandOrigin {
  correlationId?: string;
  causationId?: string | null;
  /** The acting user; null for the system (a webhook, a timer, a process manager). */
  userId?: string | null;
}

export interface StreamOutcome<State, Event> {
  state: State;
  /** The appended events; empty when there was nothing to do. */
  events: Event[];
  /** Global position of the last appended event, for read-your-writes; undefined when none. */
  position: bigint | undefined;
}

const maxAttempts = 6;

/**
 * For commands outside a request (webhooks, timers, process managers, and routes that call
 * several streams): load, decide, append with the expected revision; on a concurrent change,
 * again from the top, so a rule decided on the state holds under any load. `companyOf` names the
 * tenant for the metadata; undefined (no such entity) appends nothing.
 */
export async function runOnStream<State, Command, Event extends DecidedEvent>(
  deps: { store: EventStore; clock: () => Date },
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  companyOf: (state: State) => string | undefined,
  origin: CommandOrigin = {},
): Promise<StreamOutcome<State, Event>> {
  for (let attempt = 1; ; attempt++) {
    const loaded = await foldStream(deps.store, streamId, decider);
    const decided = decider.decide(command, loaded.state);
    const events = Array.isArray(decided) ? [...decided] : [decided as Event];
    const state = events.reduce(decider.evolve, loaded.state);
    const companyId = companyOf(state);
    if (events.length === 0 || companyId === undefined) {
      return { state, events: [], position: undefined };
    }
    try {
      const appended = await deps.store.appendToStream(
        streamId,
        toNewEvents(events, metadataOf(deps.clock, companyId, origin)),
        { expectedRevision: loaded.revision ?? 'no_stream' },
      );
      return { state, events, position: appended.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempt));
    }
  }
}

export function metadataOf(
  clock: () => Date,
  companyId: string,
  origin: CommandOrigin,
): EventMetadata {
  const correlationId = origin.correlationId ?? randomUUID();
  return {
    companyId,
    userId: origin.userId ?? null,
    correlationId,
    causationId: origin.causationId ?? correlationId,
    occurredAt: clock().toISOString(),
    schemaVersion: 1,
  };
}
