import type { RaRecord } from 'react-admin';
import type { RowOutcome } from '../../../api/src/customers/bulkAdd';
import type { CustomerRecord } from '../../../api/src/customers/customerView';
import type {
  HistoryEntry,
  CustomerAsOf as ServerCustomerAsOf,
} from '../../../api/src/customers/history';
import type { nextInvestorStatuses } from '../../../api/src/customers/investorWorkflow';
import { apiUrl, callApi, httpClient } from '../session/http';
import { readStored, storageKeys } from '../session/storage';
import type { InvestorStatus, LeadStatus } from './statuses';

/** A customer as the API answers it (`api/src/customers/customerView.ts`). */
export interface Customer extends CustomerRecord, RaRecord {
  id: string;
}

export type NextStatus = ReturnType<typeof nextInvestorStatuses>[number];

export interface DetailedCustomer extends Customer {
  nextInvestorStatuses: NextStatus[];
}

export type CustomerAsOf = ServerCustomerAsOf & RaRecord;

export type { HistoryEntry };

/** `POST /api/customers/import`'s answer: one outcome per CSV line. */
export interface ImportAnswer {
  added: number;
  duplicates: number;
  invalid: number;
  results: (DistributiveOmit<RowOutcome, 'row'> & { line: number })[];
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const customerPath = (id: string) => `/customers/${encodeURIComponent(id)}`;

export const fetchCustomer = (id: string) => callApi<DetailedCustomer>(customerPath(id));

export const fetchCustomerAsOf = (id: string, asOf: Date) =>
  callApi<CustomerAsOf>(`${customerPath(id)}?asOf=${encodeURIComponent(asOf.toISOString())}`);

export const fetchHistory = (id: string) =>
  callApi<{ id: string; entries: HistoryEntry[] }>(`${customerPath(id)}/history`);

/** An edit that only applies to the version the user saw: a stale one answers 412. */
export async function saveCustomer(
  customer: Pick<Customer, 'id' | 'version'>,
  changes: Partial<Customer>,
) {
  const { json } = await httpClient(`${apiUrl}${customerPath(customer.id)}`, {
    method: 'PUT',
    headers: new Headers({ Accept: 'application/json', 'If-Match': `"${customer.version}"` }),
    body: JSON.stringify(changes),
  });
  return json as DetailedCustomer;
}

export const setStarred = (ids: string[], starred: boolean) =>
  callApi(`/customers/${starred ? 'star' : 'unstar'}`, { method: 'POST', body: { ids } });

export const toggleStar = (id: string) =>
  callApi<DetailedCustomer>(`${customerPath(id)}/toggle-star`, { method: 'POST' });

export const removeCustomers = (ids: string[]) =>
  callApi('/customers/bulk-delete', { method: 'POST', body: { ids } });

export const changeInvestorStatus = (
  id: string,
  change: { status: InvestorStatus; reason?: string; evidence?: string },
) =>
  callApi<DetailedCustomer>(`${customerPath(id)}/investor-status`, {
    method: 'POST',
    body: change,
  });

export const changeLeadStatus = (id: string, leadStatus: LeadStatus) =>
  callApi<DetailedCustomer>(`${customerPath(id)}/lead-status`, {
    method: 'POST',
    body: { leadStatus },
  });

export const sendPushNotification = (
  id: string,
  notification: { title: string; message: string },
) => callApi(`${customerPath(id)}/notifications`, { method: 'POST', body: notification });

/**
 * CSV text (header line first) through the import route; lines are numbered as in the text.
 * `mapping` names each column's field (`{"E-mail": "email", "Favourite colour": ""}`).
 */
export async function importCsv(
  csv: string,
  mapping?: Record<string, string>,
): Promise<ImportAnswer> {
  const upload = new FormData();
  upload.set('file', new Blob([csv], { type: 'text/csv' }), 'customers.csv');
  if (mapping) upload.set('mapping', JSON.stringify(mapping));
  // No Content-Type: the browser sets multipart/form-data with its boundary.
  const { json } = await httpClient(`${apiUrl}/customers/import`, {
    method: 'POST',
    headers: new Headers({ Accept: 'application/json' }),
    body: upload,
  });
  return json as ImportAnswer;
}

/**
 * The server's streamed CSV of every customer matching `filter`, saved as a file. Fetched with
 * the token (a plain link could not carry it) and handed to the browser as a download.
 */
export async function downloadExport(filter: Record<string, unknown>, sort?: [string, string]) {
  const query = new URLSearchParams({ filter: JSON.stringify(filter) });
  if (sort) query.set('sort', JSON.stringify(sort));
  const token = readStored(storageKeys.token);
  const response = await fetch(`${apiUrl}/customers/export.csv?${query}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = 'customers.csv';
  link.click();
  // Released after the click has handed the file to the browser's download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
