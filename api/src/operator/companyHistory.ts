import {
  asCompanyEvent,
  type CompanyEvent,
  type EventStore,
  streamCategories,
  streamName,
} from '@issuer/events';
import { getUserNames } from '@issuer/projections';
import type { Pool } from 'pg';

/** The operator's decisions about a company: what the Companies screen's history lists. */
export const companyDecisions = [
  'CompanyRegistered',
  'CompanyVerified',
  'CompanyVerificationRevoked',
  'IssuerStatusGranted',
  'IssuerStatusRevoked',
  'CompanySuspended',
  'CompanyReinstated',
] as const satisfies readonly CompanyEvent['type'][];

export interface CompanyHistoryEntry {
  version: number;
  type: (typeof companyDecisions)[number];
  at: string;
  actor: { id: string | null; email: string | null };
  reason: string | null;
}

const isDecision = (event: CompanyEvent | undefined): event is CompanyEvent =>
  event !== undefined && (companyDecisions as readonly string[]).includes(event.type);

/**
 * The company's standing over time, replayed from its stream (never from the read model): its
 * registration, every verification, issuer status and suspension decision, with who and why.
 * Undefined for a company that does not exist.
 */
export async function companyHistory(
  deps: { store: EventStore; pool: Pool },
  operatorCompanyId: string,
  companyId: string,
): Promise<CompanyHistoryEntry[] | undefined> {
  const events = await deps.store.readStream(streamName(streamCategories.company, companyId));
  if (events.length === 0) return undefined;
  const actorIds = [...new Set(events.flatMap((event) => event.metadata.userId ?? []))];
  // Operators are users of the platform's own company; the registering admin is the company's.
  const [operators, staff] = await Promise.all([
    getUserNames(deps.pool, operatorCompanyId, actorIds),
    getUserNames(deps.pool, companyId, actorIds),
  ]);
  return events.flatMap((recorded) => {
    const event = asCompanyEvent(recorded);
    if (!isDecision(event)) return [];
    const userId = recorded.metadata.userId ?? null;
    const actor = userId ? (operators.get(userId) ?? staff.get(userId)) : undefined;
    const { reason } = event.data as { reason?: unknown };
    return [
      {
        version: Number(recorded.revision),
        type: event.type as CompanyHistoryEntry['type'],
        at: recorded.metadata.occurredAt,
        actor: { id: userId, email: actor?.email ?? null },
        reason: typeof reason === 'string' ? reason : null,
      },
    ];
  });
}
