import {
  conflict,
  type EtransferEvent,
  type EtransferMatchMethod,
  invalid,
  notFound,
  type PaymentPurpose,
} from '@issuer/events';
import { checkAmount } from '../payments/businessLogic';
import {
  awaitingCustomer,
  type Etransfer,
  type EtransferDetails,
  evolveEtransfer,
  initialEtransfer,
} from './etransfer';
import type { IncomingEvent, TransferEvent } from './provider';

export const maxMessageLength = 400;
export const maxReferenceLength = 100;
export const maxMatchReasonLength = 500;
export const defaultExpiryDays = 30;
export const maxExpiryDays = 45;
const day = 24 * 60 * 60 * 1000;

export type RequestEtransfer = {
  type: 'RequestEtransfer';
  data: {
    etransferId: string;
    companyId: string;
    customerId: string;
    recipientEmail: string;
    amountCents: number;
    message: string | null;
    reference: string | null;
    requestedBy: string;
    now: Date;
    expiresAt: Date;
    /** The subscription invoice the request collects (billing's requests). */
    invoiceId?: string;
    /** The token order the request collects (orders paid by e-transfer). */
    orderId?: string;
    /** What it collects, for each reader's language. */
    purpose?: PaymentPurpose;
  };
};
export type MarkEtransferSent = {
  type: 'MarkEtransferSent';
  data: { providerTransferId: string; now: Date };
};
export type RecordProviderEvent = { type: 'RecordProviderEvent'; data: { event: TransferEvent } };
export type CancelEtransfer = {
  type: 'CancelEtransfer';
  data: { companyId: string; actorId: string; now: Date };
};
export type ExpireEtransfer = { type: 'ExpireEtransfer'; data: { now: Date } };
/** The customer was looked up by the caller (sender email, then reference); null: unmatched. */
export type ReceiveIncomingEtransfer = {
  type: 'ReceiveIncomingEtransfer';
  data: {
    etransferId: string;
    event: IncomingEvent;
    customerId: string | null;
    matchedBy: EtransferMatchMethod | null;
  };
};
export type MatchEtransfer = {
  type: 'MatchEtransfer';
  data: { companyId: string; customerId: string; reason: string; actorId: string; now: Date };
};
/** Issued only after the company wallet reserved the amount (see etransferCommands). */
export type RequestPayout = {
  type: 'RequestPayout';
  data: {
    etransferId: string;
    companyId: string;
    customerId: string;
    recipientEmail: string;
    amountCents: number;
    message: string | null;
    requestedBy: string;
    now: Date;
  };
};

export type EtransferCommand =
  | RequestEtransfer
  | MarkEtransferSent
  | RecordProviderEvent
  | CancelEtransfer
  | ExpireEtransfer
  | ReceiveIncomingEtransfer
  | MatchEtransfer
  | RequestPayout;

export function decideEtransfer(command: EtransferCommand, state: Etransfer): EtransferEvent[] {
  switch (command.type) {
    case 'RequestEtransfer':
      return requestEtransfer(command, state);
    case 'RequestPayout':
      return requestPayout(command, state);
    case 'ReceiveIncomingEtransfer':
      return receiveIncoming(command, state);
  }
  if (state.status === 'none') throw notFound('E-transfer');
  switch (command.type) {
    case 'MarkEtransferSent':
      return markSent(command, state);
    case 'RecordProviderEvent':
      return recordProviderEvent(command.data.event, state);
    case 'CancelEtransfer':
      return cancel(command, own(state, command.data.companyId));
    case 'ExpireEtransfer':
      return expire(command, state);
    case 'MatchEtransfer':
      return match(command, own(state, command.data.companyId));
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}

function own(state: EtransferDetails, companyId: string): EtransferDetails {
  if (state.companyId !== companyId) throw notFound('E-transfer');
  return state;
}

const ids = (state: EtransferDetails) => ({
  etransferId: state.etransferId,
  companyId: state.companyId,
});

export function checkMessage(message: string | null): void {
  if (message !== null && message.length > maxMessageLength) {
    const text = `Max character length is ${maxMessageLength}`;
    throw invalid(text, { message: text });
  }
}

function requestEtransfer({ data }: RequestEtransfer, state: Etransfer): EtransferEvent[] {
  if (state.status !== 'none') throw conflict('This e-transfer already exists');
  checkAmount(data.amountCents);
  checkMessage(data.message);
  if (data.reference !== null && data.reference.length > maxReferenceLength) {
    const text = `Max character length is ${maxReferenceLength}`;
    throw invalid(text, { reference: text });
  }
  const ahead = data.expiresAt.getTime() - data.now.getTime();
  if (!(ahead > 0 && ahead <= maxExpiryDays * day)) {
    const text = `Must be in the future, at most ${maxExpiryDays} days away`;
    throw invalid(text, { expiresAt: text });
  }
  return [
    {
      type: 'EtransferRequested',
      data: {
        etransferId: data.etransferId,
        companyId: data.companyId,
        customerId: data.customerId,
        recipientEmail: data.recipientEmail,
        amountCents: data.amountCents,
        currency: 'CAD',
        message: data.message,
        reference: data.reference,
        requestedBy: data.requestedBy,
        requestedAt: data.now.toISOString(),
        expiresAt: data.expiresAt.toISOString(),
        ...(data.invoiceId ? { invoiceId: data.invoiceId } : {}),
        ...(data.orderId ? { orderId: data.orderId } : {}),
        ...(data.purpose ? { purpose: data.purpose } : {}),
      },
    },
  ];
}

function requestPayout({ data }: RequestPayout, state: Etransfer): EtransferEvent[] {
  if (state.status !== 'none') return [];
  checkAmount(data.amountCents);
  checkMessage(data.message);
  return [
    {
      type: 'PayoutRequested',
      data: {
        etransferId: data.etransferId,
        companyId: data.companyId,
        customerId: data.customerId,
        recipientEmail: data.recipientEmail,
        amountCents: data.amountCents,
        currency: 'CAD',
        message: data.message,
        requestedBy: data.requestedBy,
        requestedAt: data.now.toISOString(),
      },
    },
  ];
}

/** A redelivered autodeposit finds its stream already there and changes nothing. */
function receiveIncoming({ data }: ReceiveIncomingEtransfer, state: Etransfer): EtransferEvent[] {
  if (state.status !== 'none') return [];
  const { event } = data;
  return [
    {
      type: 'IncomingEtransferReceived',
      data: {
        etransferId: data.etransferId,
        companyId: event.companyId,
        providerEventId: event.id,
        providerTransferId: event.providerTransferId,
        fromEmail: event.fromEmail,
        amountCents: event.amountCents,
        currency: 'CAD',
        reference: event.reference,
        customerId: data.customerId,
        matchedBy: data.customerId === null ? null : data.matchedBy,
        receivedAt: event.occurredAt,
      },
    },
  ];
}

/** Only a request not yet marked; a repeat, or one the customer already answered, changes nothing. */
function markSent({ data }: MarkEtransferSent, state: EtransferDetails): EtransferEvent[] {
  if (state.kind !== 'request' || state.status !== 'requested') return [];
  return [
    {
      type: 'EtransferSent',
      data: {
        ...ids(state),
        providerTransferId: data.providerTransferId,
        sentAt: data.now.toISOString(),
      },
    },
  ];
}

/**
 * The provider's reports arrive at least once and in any order: a seen event id changes nothing,
 * a deposit before the "sent" mark is recorded, and so is a deposit after a cancel or an expiry
 * (the money moved); anything else after a final status is ignored. A report for the other kind
 * (a payout event on a request) is ignored too.
 */
function recordProviderEvent(event: TransferEvent, state: EtransferDetails): EtransferEvent[] {
  if (state.seenProviderEventIds.includes(event.id)) return [];
  const base = { ...ids(state), providerEventId: event.id };
  switch (event.type) {
    case 'request.deposited':
      if (state.kind !== 'request' || state.status === 'deposited') return [];
      if (state.status === 'declined') return [];
      return [
        {
          type: 'EtransferDeposited',
          data: {
            ...base,
            amountCents: event.amountCents,
            currency: state.currency,
            depositedAt: event.occurredAt,
          },
        },
      ];
    case 'request.declined':
      if (!awaitingCustomer(state)) return [];
      return [{ type: 'EtransferDeclined', data: { ...base, declinedAt: event.occurredAt } }];
    case 'payout.sent':
      if (state.kind !== 'payout' || state.status !== 'requested') return [];
      return [
        {
          type: 'PayoutSent',
          data: { ...base, providerTransferId: event.providerTransferId, sentAt: event.occurredAt },
        },
      ];
    case 'payout.failed':
      if (state.kind !== 'payout' || state.status !== 'requested') return [];
      return [
        {
          type: 'PayoutFailed',
          data: {
            ...base,
            amountCents: state.amountCents,
            reason: event.reason,
            failedAt: event.occurredAt,
          },
        },
      ];
    default: {
      const _exhaustive: never = event;
      return [];
    }
  }
}

function cancel({ data }: CancelEtransfer, state: EtransferDetails): EtransferEvent[] {
  if (!awaitingCustomer(state)) {
    throw conflict(
      `Only a money request the customer has not answered can be cancelled (it is ${state.kind === 'request' ? state.status : `a ${state.kind}`})`,
    );
  }
  return [
    {
      type: 'EtransferCancelled',
      data: { ...ids(state), cancelledBy: data.actorId, cancelledAt: data.now.toISOString() },
    },
  ];
}

/** The timer: nothing to do for a request that moved on or whose time has not come. */
function expire({ data }: ExpireEtransfer, state: EtransferDetails): EtransferEvent[] {
  if (!awaitingCustomer(state) || state.expiresAt === null) return [];
  if (data.now.getTime() < Date.parse(state.expiresAt)) return [];
  return [{ type: 'EtransferExpired', data: { ...ids(state), expiredAt: data.now.toISOString() } }];
}

function match({ data }: MatchEtransfer, state: EtransferDetails): EtransferEvent[] {
  const reason = data.reason.trim();
  if (!reason) throw invalid('A match needs a reason', { reason: 'Reason is required' });
  if (reason.length > maxMatchReasonLength) {
    const text = `Max character length is ${maxMatchReasonLength}`;
    throw invalid(text, { reason: text });
  }
  if (state.kind !== 'incoming') {
    throw conflict('Only an incoming e-transfer is matched to a customer');
  }
  if (state.customerId !== null) {
    if (state.customerId === data.customerId && state.matchReason === reason) return [];
    throw conflict('This e-transfer is already matched to a customer');
  }
  return [
    {
      type: 'EtransferMatched',
      data: {
        ...ids(state),
        customerId: data.customerId,
        reason,
        matchedBy: data.actorId,
        matchedAt: data.now.toISOString(),
      },
    },
  ];
}

export const etransferDecider = {
  initialState: initialEtransfer,
  evolve: evolveEtransfer,
  decide: decideEtransfer,
};
