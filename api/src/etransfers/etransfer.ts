import type {
  EtransferEvent,
  EtransferMatchMethod,
  PaymentCurrency,
  PayoutFailureReason,
} from '@issuer/events';

/**
 * One e-transfer: a money `request` to a customer (requested → sent → deposited, or declined,
 * cancelled, expired), an `incoming` autodeposit nobody requested (deposited at once, matched to a
 * customer or not), or a `payout` to a customer (requested → sent, or failed).
 */
export type EtransferKind = 'request' | 'incoming' | 'payout';
export type EtransferStatus =
  | 'requested'
  | 'sent'
  | 'deposited'
  | 'declined'
  | 'cancelled'
  | 'expired'
  | 'failed';

export interface EtransferDetails {
  kind: EtransferKind;
  status: EtransferStatus;
  etransferId: string;
  companyId: string;
  /** Null only for an incoming e-transfer still unmatched. */
  customerId: string | null;
  /** The customer's email for a request or payout; the sender's for an incoming one. */
  email: string;
  amountCents: number;
  currency: PaymentCurrency;
  message: string | null;
  reference: string | null;
  requestedBy: string | null;
  createdAt: string;
  expiresAt: string | null;
  providerTransferId: string | null;
  matchedBy: EtransferMatchMethod | null;
  matchedByUser: string | null;
  matchReason: string | null;
  failureReason: PayoutFailureReason | null;
  /** When it reached a final status. */
  completedAt: string | null;
  /** The provider's event ids already recorded: a redelivered webhook changes nothing. */
  seenProviderEventIds: readonly string[];
}

export type Etransfer = { status: 'none' } | EtransferDetails;

export const initialEtransfer = (): Etransfer => ({ status: 'none' });

export const isEtransfer = (state: Etransfer): state is EtransferDetails => state.status !== 'none';

export function evolveEtransfer(state: Etransfer, event: EtransferEvent): Etransfer {
  switch (event.type) {
    case 'EtransferRequested':
      return created('request', 'requested', event.data.requestedAt, {
        ...event.data,
        email: event.data.recipientEmail,
      });
    case 'PayoutRequested':
      return created('payout', 'requested', event.data.requestedAt, {
        ...event.data,
        email: event.data.recipientEmail,
        reference: null,
        expiresAt: null,
      });
    case 'IncomingEtransferReceived': {
      const { data } = event;
      return {
        ...created('incoming', 'deposited', data.receivedAt, {
          ...data,
          email: data.fromEmail,
          message: null,
          requestedBy: null,
          expiresAt: null,
        }),
        providerTransferId: data.providerTransferId,
        matchedBy: data.matchedBy,
        completedAt: data.receivedAt,
        seenProviderEventIds: [data.providerEventId],
      };
    }
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'EtransferSent':
      return {
        ...state,
        status: state.status === 'requested' ? 'sent' : state.status,
        providerTransferId: event.data.providerTransferId,
      };
    case 'EtransferDeposited':
      return final(seen(state, event.data.providerEventId), 'deposited', event.data.depositedAt);
    case 'EtransferDeclined':
      return final(seen(state, event.data.providerEventId), 'declined', event.data.declinedAt);
    case 'EtransferCancelled':
      return final(state, 'cancelled', event.data.cancelledAt);
    case 'EtransferExpired':
      return final(state, 'expired', event.data.expiredAt);
    case 'EtransferMatched':
      return {
        ...state,
        customerId: event.data.customerId,
        matchedBy: 'manual',
        matchedByUser: event.data.matchedBy,
        matchReason: event.data.reason,
      };
    case 'PayoutSent':
      return {
        ...final(seen(state, event.data.providerEventId), 'sent', event.data.sentAt),
        providerTransferId: event.data.providerTransferId,
      };
    case 'PayoutFailed':
      return {
        ...final(seen(state, event.data.providerEventId), 'failed', event.data.failedAt),
        failureReason: event.data.reason,
      };
    default:
      return state;
  }
}

interface Created {
  etransferId: string;
  companyId: string;
  customerId: string | null;
  email: string;
  amountCents: number;
  currency: PaymentCurrency;
  message: string | null;
  reference: string | null;
  requestedBy: string | null;
  expiresAt: string | null;
}

function created(
  kind: EtransferKind,
  status: EtransferStatus,
  createdAt: string,
  data: Created,
): EtransferDetails {
  return {
    kind,
    status,
    etransferId: data.etransferId,
    companyId: data.companyId,
    customerId: data.customerId,
    email: data.email,
    amountCents: data.amountCents,
    currency: data.currency,
    message: data.message,
    reference: data.reference,
    requestedBy: data.requestedBy,
    createdAt,
    expiresAt: data.expiresAt,
    providerTransferId: null,
    matchedBy: null,
    matchedByUser: null,
    matchReason: null,
    failureReason: null,
    completedAt: null,
    seenProviderEventIds: [],
  };
}

function final(state: EtransferDetails, status: EtransferStatus, at: string): EtransferDetails {
  return { ...state, status, completedAt: at };
}

function seen(state: EtransferDetails, providerEventId: string): EtransferDetails {
  if (state.seenProviderEventIds.includes(providerEventId)) return state;
  return { ...state, seenProviderEventIds: [...state.seenProviderEventIds, providerEventId] };
}

/** A money request still waiting for the customer (it can be cancelled, expired or declined). */
export const awaitingCustomer = (state: EtransferDetails) =>
  state.kind === 'request' && (state.status === 'requested' || state.status === 'sent');
