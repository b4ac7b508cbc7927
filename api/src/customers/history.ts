import { asCustomerEvent, type EventStore, type RecordedEvent } from '@issuer/events';
import { fundedRoundAsOf, getUserNames } from '@issuer/projections';
import type { Pool } from 'pg';
import { holderHistory } from '../capTable/holderHistory';
import { latestSnapshot, type Snapshot, saveSnapshots, snapshotEvery } from './asOfSnapshots';
import { type Customer, evolveCustomer, initialCustomer } from './customer';
import { customerStream } from './customerCommands';
import { type CustomerRecord, recordOfState } from './customerView';

/**
 * Compliance answers, computed by replaying the customer's stream (never from the read model):
 * every event with who, when, why and what changed, and the customer as they were at a moment.
 * Times are the commands' decision times (`occurredAt`).
 */

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

export interface HistoryEntry {
  version: number;
  type: string;
  at: string;
  actor: { id: string | null; email: string | null; displayName: string | null };
  reason: string | null;
  evidence: string | null;
  changes: FieldChange[];
  /** What the event says beyond field changes (a notification's title and message). */
  details: Record<string, unknown>;
}

/** The caller's customer's events, or undefined when it is missing or another company's. */
async function ownStream(
  store: EventStore,
  companyId: string,
  customerId: string,
): Promise<RecordedEvent[] | undefined> {
  const events = await store.readStream(customerStream(customerId));
  const first = events[0] && asCustomerEvent(events[0]);
  return first?.data.companyId === companyId ? events : undefined;
}

/** A customer's visible facts as one flat object, for before → after. */
function facts(state: Customer): Record<string, unknown> {
  if (state.status === 'none') return {};
  const { profile, leadStatus, investorStatus, starred, status } = state;
  return { ...profile, leadStatus, investorStatus, starred, removed: status === 'removed' };
}

function diff(before: Record<string, unknown>, after: Record<string, unknown>): FieldChange[] {
  const fields = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...fields]
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => ({ field, before: before[field] ?? null, after: after[field] ?? null }));
}

export async function customerHistory(
  deps: { store: EventStore; pool: Pool },
  companyId: string,
  customerId: string,
): Promise<HistoryEntry[] | undefined> {
  const events = await ownStream(deps.store, companyId, customerId);
  if (!events) return undefined;
  const holdings = await holderHistory(deps.pool, companyId, customerId);
  const actorIds = [
    ...new Set([
      ...events.flatMap((event) => event.metadata.userId ?? []),
      ...holdings.map((change) => change.actorId),
    ]),
  ];
  const actors = await getUserNames(deps.pool, companyId, actorIds);
  let state = initialCustomer();
  const entries: HistoryEntry[] = [];
  for (const recorded of events) {
    const event = asCustomerEvent(recorded);
    if (!event) continue;
    const next = evolveCustomer(state, event);
    const userId = recorded.metadata.userId;
    const actor = userId ? actors.get(userId) : undefined;
    const data = event.data as Record<string, unknown>;
    entries.push({
      version: Number(recorded.revision),
      type: event.type,
      at: recorded.metadata.occurredAt,
      actor: {
        id: userId,
        email: actor?.email ?? null,
        displayName: actor?.displayName ?? null,
      },
      reason: typeof data.reason === 'string' ? data.reason : null,
      evidence: typeof data.evidence === 'string' ? data.evidence : null,
      changes: diff(facts(state), facts(next)),
      details:
        event.type === 'PushNotificationSent'
          ? { title: event.data.title, message: event.data.message }
          : {},
    });
    state = next;
  }
  return withHoldings(entries, holdings, actors);
}

/**
 * The cap table's issuances and transfers that changed the customer's shares, as entries of
 * their history (tokenBalance before → after), merged by time; each keeps the customer's version
 * of that moment.
 */
function withHoldings(
  entries: HistoryEntry[],
  holdings: Awaited<ReturnType<typeof holderHistory>>,
  actors: Awaited<ReturnType<typeof getUserNames>>,
): HistoryEntry[] {
  if (holdings.length === 0) return entries;
  const merged = [...entries];
  for (const change of holdings) {
    const actor = actors.get(change.actorId);
    const version = [...entries].reverse().find((entry) => entry.at <= change.at)?.version ?? 0;
    merged.push({
      version,
      type: change.type,
      at: change.at,
      actor: {
        id: change.actorId === 'system' ? null : change.actorId,
        email: actor?.email ?? null,
        displayName: actor?.displayName ?? null,
      },
      reason: change.reason,
      evidence: null,
      changes: [{ field: 'tokenBalance', before: change.before, after: change.after }],
      details: change.details,
    });
  }
  return merged.sort((x, y) => Date.parse(x.at) - Date.parse(y.at));
}

export type CustomerAsOf = CustomerRecord & { removed: boolean; asOf: string };

/**
 * The customer as they were at `asOf`: the stream replayed in order up to the first event decided
 * after that moment, starting from the newest checkpoint the moment allows (asOfSnapshots.ts).
 * Their roundId is derived like the record's: from their orders funded by then.
 * Undefined when they did not exist yet, or are another company's.
 */
export async function customerAsOf(
  deps: { store: EventStore; pool: Pool },
  companyId: string,
  customerId: string,
  asOf: Date,
): Promise<CustomerAsOf | undefined> {
  const until = asOf.getTime();
  const checkpoint = await latestSnapshot(deps.pool, customerId, asOf);
  let { state, stamp, reachedAt } = checkpoint ?? {
    state: initialCustomer(),
    stamp: { version: 0, updatedAt: '' },
    reachedAt: Number.NEGATIVE_INFINITY,
  };
  const reached: Snapshot[] = [];
  const events = await deps.store.readStream(
    customerStream(customerId),
    checkpoint ? { fromRevision: BigInt(checkpoint.revision + 1) } : {},
  );
  for (const recorded of events) {
    const occurredAt = Date.parse(recorded.metadata.occurredAt);
    if (occurredAt > until) break;
    reachedAt = Math.max(reachedAt, occurredAt);
    const event = asCustomerEvent(recorded);
    if (event) {
      state = evolveCustomer(state, event);
      stamp = { version: Number(recorded.revision), updatedAt: recorded.metadata.occurredAt };
    }
    const revision = Number(recorded.revision);
    if ((revision + 1) % snapshotEvery === 0) reached.push({ revision, reachedAt, state, stamp });
  }
  if (state.status === 'none' || state.companyId !== companyId) return undefined;
  await saveSnapshots(deps.pool, customerId, reached);
  const record = recordOfState(state, stamp);
  // The round of their most recent order whose money had arrived by then (issue 10).
  const roundId = await fundedRoundAsOf(deps.pool, companyId, customerId, asOf);
  return {
    ...record,
    roundId: roundId ?? record.roundId,
    removed: state.status === 'removed',
    asOf: asOf.toISOString(),
  };
}
