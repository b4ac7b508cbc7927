import type { RaRecord } from 'react-admin';
import { apiUrl, callApi, httpClient } from '../session/http';

export const etransferKinds = ['request', 'incoming', 'payout'] as const;
export type EtransferKind = (typeof etransferKinds)[number];

export const etransferStatuses = [
  'requested',
  'sent',
  'deposited',
  'declined',
  'cancelled',
  'expired',
  'failed',
] as const;
export type EtransferStatus = (typeof etransferStatuses)[number];

/** An e-transfer as the API answers it (`GET /api/etransfers/:id`). */
export interface Etransfer extends RaRecord {
  id: string;
  kind: EtransferKind;
  status: EtransferStatus;
  customerId: string | null;
  customerName: string | null;
  email: string;
  amountCents: number;
  currency: 'CAD';
  message: string | null;
  reference: string | null;
  requestedBy: string | null;
  /** How an incoming one found its customer: `email`, `reference` or `manual`. */
  matchedBy: string | null;
  matchedByUser: string | null;
  matchReason: string | null;
  failureReason: string | null;
  /** The subscription invoice a billing request collects. */
  invoiceId?: string | null;
  createdAt: string;
  expiresAt: string | null;
  completedAt: string | null;
}

export interface NewRequest {
  customerId: string;
  amountCents: number;
  message?: string;
  reference?: string;
  expiresAt?: string;
}

export interface NewPayout {
  customerId: string;
  amountCents: number;
  message?: string;
}

const path = (id: string) => `/etransfers/${encodeURIComponent(id)}`;

/** A POST with an idempotency key made once per dialog: a double click sends one e-transfer. */
async function postOnce<T>(url: string, body: unknown, idempotencyKey: string): Promise<T> {
  const { json } = await httpClient(`${apiUrl}${url}`, {
    method: 'POST',
    headers: new Headers({ Accept: 'application/json', 'Idempotency-Key': idempotencyKey }),
    body: JSON.stringify(body),
  });
  return json as T;
}

export const requestMoney = (request: NewRequest, idempotencyKey: string) =>
  postOnce<Etransfer>('/etransfers/requests', request, idempotencyKey);

export const sendPayout = (payout: NewPayout, idempotencyKey: string) =>
  postOnce<Etransfer>('/etransfers/payouts', payout, idempotencyKey);

export const matchEtransfer = (
  id: string,
  match: { customerId: string; reason: string },
  idempotencyKey: string,
) => postOnce<Etransfer>(`${path(id)}/match`, match, idempotencyKey);

export const fetchEtransfer = (id: string) => callApi<Etransfer>(path(id));

export const cancelEtransfer = (id: string) =>
  callApi<Etransfer>(`${path(id)}/cancel`, { method: 'POST' });

/** Answers only while the simulator is the provider (404 otherwise): whether to offer the sandbox. */
export const fetchEtransferSimulator = () => callApi<{ provider: string }>('/etransfers/simulator');

/** The sandbox's customer pays (`deposit`) or declines the money request. */
export const simulateAnswer = (id: string, action: 'deposit' | 'decline') =>
  callApi<{ etransferId: string }>(`${path(id)}/simulator/${action}`, { method: 'POST' });

/** The sandbox sends the company an e-transfer nobody requested (an autodeposit). */
export const simulateIncoming = (incoming: {
  fromEmail: string;
  amountCents: number;
  reference?: string;
}) =>
  callApi<{ etransferId: string }>('/etransfers/simulator/incoming', {
    method: 'POST',
    body: incoming,
  });
