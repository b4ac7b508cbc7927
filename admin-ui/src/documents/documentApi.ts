import { HttpError, type RaRecord } from 'react-admin';
import { apiUrl, callApi, httpClient } from '../session/http';
import { readStored, storageKeys } from '../session/storage';

export const signatureStatuses = [
  'sent',
  'viewed',
  'signed',
  'declined',
  'expired',
  'cancelled',
] as const;
export type SignatureStatus = (typeof signatureStatuses)[number];

/** The largest file the API takes (20 MB); bigger ones are refused before sending. */
export const maxDocumentBytes = 20 * 1024 * 1024;
export const acceptedTypes = 'application/pdf,image/png,image/jpeg';

export interface DocumentVersion {
  version: number;
  fileName: string;
  mediaType: string;
  sizeBytes: number;
  sha256: string;
  uploadedAt: string;
}

/** A document as `GET /api/documents` answers it. */
export interface DocumentRecord extends RaRecord {
  id: string;
  title: string;
  status: 'active' | 'removed';
  customerId: string | null;
  customerName: string | null;
  roundId: string | null;
  fileName: string;
  mediaType: string;
  sizeBytes: number;
  sha256: string;
  version: number;
  updatedAt: string;
  versions: DocumentVersion[];
}

export interface SignatureRequestRecord extends RaRecord {
  id: string;
  status: SignatureStatus;
  customerId: string;
  customerName: string | null;
  documents: { documentId: string; version: number; title: string; sha256: string }[];
  expiresAt: string;
  requestedAt: string;
  signedAt: string | null;
  signerName: string | null;
  signingPath: string | null;
}

export const statusColors: Record<
  SignatureStatus,
  'default' | 'success' | 'warning' | 'error' | 'info'
> = {
  sent: 'info',
  viewed: 'warning',
  signed: 'success',
  declined: 'error',
  expired: 'default',
  cancelled: 'default',
};

/** Sends a file as the API's multipart upload; the API's error (413, 415, 400) is thrown as is. */
async function sendFile(path: string, file: File, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value) form.append(name, value);
  form.append('file', file, file.name);
  const { json } = await httpClient(`${apiUrl}${path}`, { method: 'POST', body: form });
  return json as DocumentRecord;
}

export const uploadDocument = (file: File, fields: { title?: string; customerId?: string }) =>
  sendFile('/documents', file, fields);
export const uploadVersion = (id: string, file: File) =>
  sendFile(`/documents/${encodeURIComponent(id)}/versions`, file);
export const removeDocument = (id: string) =>
  callApi<DocumentRecord>(`/documents/${encodeURIComponent(id)}`, { method: 'DELETE' });

export async function requestSignature(
  input: { customerId: string; documentIds: string[]; message?: string },
  idempotencyKey: string,
) {
  const { json } = await httpClient(`${apiUrl}/signature-requests`, {
    method: 'POST',
    headers: new Headers({ Accept: 'application/json', 'Idempotency-Key': idempotencyKey }),
    body: JSON.stringify(input),
  });
  return json as SignatureRequestRecord;
}

export const cancelSignatureRequest = (id: string) =>
  callApi<SignatureRequestRecord>(`/signature-requests/${encodeURIComponent(id)}/cancel`, {
    method: 'POST',
  });

/** The signing page's full address, to copy and send. */
export const signingUrl = (path: string) => new URL(path, window.location.origin).toString();

/** Downloads an authenticated file (the token travels in a header, so no plain link). */
export async function download(path: string, fallbackName: string): Promise<void> {
  const token = readStored(storageKeys.token);
  const res = await fetch(`${apiUrl}${path}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!res.ok) throw new HttpError(res.statusText, res.status);
  const disposition = res.headers.get('Content-Disposition') ?? '';
  const named = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
  const url = URL.createObjectURL(await res.blob());
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = named ? decodeURIComponent(named) : fallbackName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** "1.2 MB" in the reader's language. */
export function formatBytes(bytes: number, locale: string): string {
  const units = ['byte', 'kilobyte', 'megabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: units[unit],
    // "400 bytes", not "400 byte" (the short form of bytes is singular in English).
    unitDisplay: unit === 0 ? 'long' : 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}
