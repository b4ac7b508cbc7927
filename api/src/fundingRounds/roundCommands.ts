import { randomUUID } from 'node:crypto';
import {
  conflict,
  type FundingRoundEvent,
  invalid,
  notFound,
  streamCategories,
  streamName,
  WrongExpectedRevisionError,
} from '@issuer/events';
import { capTableDecider } from '../capTable/businessLogic';
import { capTableStream } from '../capTable/capTableCommands';
import { type AppDependencies, foldStream, toNewEvents } from '../http';
import { type CommandOrigin, metadataOf, runOnStream } from '../http/streamCommands';
import { checkTerms, type RoundCommand, roundDecider } from './businessLogic';
import { handleDecider, roundHandleStream } from './handleReservation';
import {
  type ExistingRound,
  evolveRound,
  initialRound,
  isRound,
  offeredTokens,
  type Round,
  type RoundTerms,
} from './round';

/**
 * The write operations on funding rounds, for the routes and for the order process. Each append
 * carries the round stream's expected revision and is decided again on a concurrent change
 * (runOnStream), so a thousand concurrent reservations never sell more than the round offers.
 */
export type RoundDeps = Pick<AppDependencies, 'store' | 'clock'>;
export type Actor = { companyId: string; actorId: string } & CommandOrigin;

export const roundStream = (roundId: string) => streamName(streamCategories.fundingRound, roundId);

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
export const isRoundId = (id: string) => new RegExp(`^rnd_${uuid}$`).test(id);

const originOf = (actor: Actor): CommandOrigin => ({
  ...actor,
  userId: actor.actorId === 'system' ? null : actor.actorId,
});

/** Each round's commands in this process, one after the other (see runOnRound). */
const queues = new Map<string, Promise<unknown>>();

function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = queues.get(key) ?? Promise.resolve();
  const result = before.then(work, work);
  const tail = result.catch(() => {});
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return result;
}

/**
 * Each round's committed state in this process, with its revision: a command reads only the
 * events after it. A round takes one event per order, so folding the whole stream per order would
 * make a thousand orders quadratic. Only committed events are ever folded into it.
 */
const cache = new Map<string, { state: ExistingRound; revision: bigint }>();
const maxCachedRounds = 1000;
const maxAttempts = 8;

async function caughtUp(deps: Pick<RoundDeps, 'store'>, streamId: string) {
  const cached = cache.get(streamId);
  const fresh = await deps.store.readStream(
    streamId,
    cached ? { fromRevision: cached.revision + 1n } : undefined,
  );
  let state: Round = cached?.state ?? initialRound();
  for (const event of fresh) state = evolveRound(state, event as unknown as FundingRoundEvent);
  const revision = fresh.at(-1)?.revision ?? cached?.revision;
  if (!isRound(state) || revision === undefined) return undefined;
  if (!cached && cache.size >= maxCachedRounds) cache.clear();
  const entry = { state, revision };
  cache.set(streamId, entry);
  return entry;
}

/**
 * A command on the round's stream. The append expects the revision the decision was made on,
 * which alone keeps the round from overselling across processes (a stale decision is read again
 * and decided again). Within a process the round's commands also queue, so a thousand concurrent
 * orders do not spend their retries racing each other for the same revision.
 */
export function runOnRound(deps: RoundDeps, actor: Actor, command: RoundCommand) {
  const streamId = roundStream(command.data.roundId);
  return serialized(streamId, async () => {
    for (let attempt = 1; ; attempt++) {
      const current = await caughtUp(deps, streamId);
      const events = roundDecider.decide(command, current?.state ?? initialRound());
      const companyId = current?.state.companyId ?? events[0]?.data.companyId;
      if (events.length === 0 || companyId === undefined) {
        return { state: current?.state ?? initialRound(), events, position: undefined };
      }
      try {
        const appended = await deps.store.appendToStream(
          streamId,
          toNewEvents(events, metadataOf(deps.clock, companyId, originOf(actor))),
          { expectedRevision: current?.revision ?? 'no_stream' },
        );
        // Committed: the events are folded on the next command's catch-up read.
        return { state: current?.state ?? initialRound(), events, position: appended.position };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempt));
      }
    }
  });
}

/** The round as this process last saw it committed, caught up with the stream. */
export async function loadRound(deps: Pick<RoundDeps, 'store'>, roundId: string) {
  if (!isRoundId(roundId)) return undefined;
  const streamId = roundStream(roundId);
  const entry = await serialized(streamId, () => caughtUp(deps, streamId));
  return entry && structuredClone(entry.state);
}

/** The caller's round, or 404 (missing, or another company's). */
export async function ownRound(deps: Pick<RoundDeps, 'store'>, companyId: string, roundId: string) {
  const round = await loadRound(deps, roundId);
  if (!round || round.companyId !== companyId) throw notFound('Funding round');
  return round;
}

/** The share class must be the company's, with enough shares left for every token offered. */
async function checkShareClass(deps: RoundDeps, companyId: string, terms: RoundTerms) {
  const { state } = await foldStream(deps.store, capTableStream(companyId), capTableDecider);
  const known = state.status === 'open' ? state.classes[terms.shareClassId] : undefined;
  if (!known) throw invalid('Unknown share class', { shareClassId: 'Unknown share class' });
  const left = known.authorized - known.issued;
  const offered = offeredTokens(terms);
  if (offered > left) {
    const text = `The round offers ${offered} tokens; ${known.name} has ${left} shares left to issue`;
    throw conflict(text, { raiseAmountCents: text });
  }
}

function handleCommand(
  deps: RoundDeps,
  actor: Actor,
  type: 'ReserveHandle' | 'ReleaseHandle',
  handle: string,
  roundId: string,
) {
  return runOnStream(
    deps,
    roundHandleStream(actor.companyId, handle),
    handleDecider,
    { type, data: { companyId: actor.companyId, handle, roundId } },
    () => actor.companyId,
    originOf(actor),
  );
}

export async function createRound(deps: RoundDeps, input: Actor & { terms: RoundTerms }) {
  checkTerms(input.terms);
  await checkShareClass(deps, input.companyId, input.terms);
  const roundId = `rnd_${randomUUID()}`;
  await handleCommand(deps, input, 'ReserveHandle', input.terms.handle, roundId);
  try {
    const outcome = await runOnRound(deps, input, {
      type: 'CreateRound',
      data: { ...input, roundId, now: deps.clock() },
    });
    return { roundId, position: outcome.position };
  } catch (error) {
    await handleCommand(deps, input, 'ReleaseHandle', input.terms.handle, roundId);
    throw error;
  }
}

export async function updateRound(
  deps: RoundDeps,
  input: Actor & { roundId: string; terms: RoundTerms },
) {
  const round = await ownRound(deps, input.companyId, input.roundId);
  if (round.status !== 'draft') throw conflict('Only a draft round can be changed');
  checkTerms(input.terms);
  await checkShareClass(deps, input.companyId, input.terms);
  const before = round.terms.handle;
  const after = input.terms.handle;
  if (after !== before) await handleCommand(deps, input, 'ReserveHandle', after, input.roundId);
  try {
    const outcome = await runOnRound(deps, input, {
      type: 'UpdateRound',
      data: { ...input, now: deps.clock() },
    });
    if (after !== before) {
      await handleCommand(deps, input, 'ReleaseHandle', before, input.roundId);
    }
    return outcome;
  } catch (error) {
    if (after !== before) {
      await handleCommand(deps, input, 'ReleaseHandle', after, input.roundId);
    }
    throw error;
  }
}

export async function changeRoundState(
  deps: RoundDeps,
  input: Actor & { roundId: string },
  type: 'OpenRound' | 'CloseRound' | 'CancelRound',
) {
  const round = await ownRound(deps, input.companyId, input.roundId);
  const outcome = await runOnRound(deps, input, { type, data: { ...input, now: deps.clock() } });
  if (type === 'CancelRound' && outcome.events.length > 0) {
    await handleCommand(deps, input, 'ReleaseHandle', round.terms.handle, input.roundId);
  }
  return outcome;
}
