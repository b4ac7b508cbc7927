import { apiUrl } from '../session/http';
import { readStored, storageKeys } from '../session/storage';

export interface AuditEntry {
  id: string;
  at: string;
  occurredAt: string;
  actorId: string;
  actorName: string | null;
  /** The platform operator acted (verified the company, say): shown by role, not by name. */
  actorIsOperator: boolean;
  eventType: string;
  resource: string;
  recordId: string;
  reason: string | null;
  eventId: string;
  details: unknown;
  /** What a payment, refund, credit… moved, in CAD cents; null for other events. */
  amountCents: number | null;
}

/** Where a record of the log opens in the portal; undefined when it has no screen. */
export function recordPath(entry: Pick<AuditEntry, 'resource' | 'recordId'>): string | undefined {
  const paths: Record<string, string> = {
    customers: `/customers/all/${entry.recordId}`,
    payments: '/transactions/all',
    etransfers: '/etransfers/all',
    subscriptions: '/subscriptions/all',
    plans: '/subscriptions/all',
    company: '/profile',
  };
  return paths[entry.resource];
}

/** The server's streamed CSV of the entries matching `filter`, saved as a file. */
export async function downloadAudit(filter: Record<string, unknown>) {
  const token = readStored(storageKeys.token);
  const query = new URLSearchParams({ filter: JSON.stringify(filter) });
  const response = await fetch(`${apiUrl}/audit/export.csv?${query}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = 'audit.csv';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
