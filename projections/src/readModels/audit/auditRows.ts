import {
  billingSettingsEventSchemas,
  companyEventSchemas,
  customerEventSchemas,
  etransferEventSchemas,
  parseStreamName,
  paymentEventSchemas,
  planEventSchemas,
  type RecordedEvent,
  subscriptionEventSchemas,
  userEventSchemas,
  walletEventSchemas,
} from '@issuer/events';

/** Every business event of a company (reservations of unique names are bookkeeping, not acts). */
export const auditEventTypes: readonly string[] = [
  companyEventSchemas,
  userEventSchemas,
  customerEventSchemas,
  paymentEventSchemas,
  etransferEventSchemas,
  walletEventSchemas,
  planEventSchemas,
  subscriptionEventSchemas,
  billingSettingsEventSchemas,
].flatMap((schemas) => Object.keys(schemas));

/** The API resource a stream's records are under, for the audit log's links and record filter. */
export const auditResources = {
  Company: 'company',
  User: 'users',
  UserSettings: 'users',
  Customer: 'customers',
  Payment: 'payments',
  ETransfer: 'etransfers',
  CompanyWallet: 'wallet',
  Plan: 'plans',
  Subscription: 'subscriptions',
  BillingSettings: 'billing-settings',
} as const satisfies Record<string, string>;

export type AuditResource = (typeof auditResources)[keyof typeof auditResources];

/** Who acted when no user did: the processor, a timer, a simulator. */
export const systemActor = 'system';

export interface AuditRow {
  companyId: string;
  position: bigint;
  eventId: string;
  eventType: string;
  streamId: string;
  resource: string;
  recordId: string;
  actorId: string;
  at: Date;
  occurredAt: string;
  reason: string | null;
  details: unknown;
}

/** Keys whose values never leave the event store (hashes, secrets, tokens). */
const secretKey = /hash|secret|password|token/i;

export function redacted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redacted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, inner]) =>
      secretKey.test(key) ? [] : [[key, redacted(inner)]],
    ),
  );
}

export function toAuditRow(event: RecordedEvent): AuditRow | undefined {
  const companyId = event.metadata.companyId;
  if (!companyId) return undefined;
  const { category, id } = parseStreamName(event.streamId);
  const resource = (auditResources as Record<string, string>)[category] ?? category.toLowerCase();
  const data = (event.data ?? {}) as Record<string, unknown>;
  return {
    companyId,
    position: event.position,
    eventId: event.id,
    eventType: event.type,
    streamId: event.streamId,
    resource,
    recordId: id,
    actorId: event.metadata.userId ?? systemActor,
    at: event.recordedAt,
    occurredAt: event.metadata.occurredAt,
    reason: typeof data.reason === 'string' ? data.reason : null,
    details: redacted(data),
  };
}
