import {
  conflict,
  invalid,
  notFound,
  type PaymentCurrency,
  type PaymentEvent,
  type PaymentPurpose,
  paymentCurrencies,
} from '@issuer/events';
import { type GatewayEvent, offSessionTerminalId } from './gateway';
import {
  evolvePayment,
  initialPayment,
  type Payment,
  type PaymentDetails,
  refundableCents,
} from './payment';

export const minPaymentCents = 1;
export const maxPaymentCents = 99_999_999;
export const maxDescriptionLength = 500;
export const maxRefundReasonLength = 500;

/** Commands a user issues name their company: another company's payment is "not found". */
export type RequestPayment = {
  type: 'RequestPayment';
  data: {
    paymentId: string;
    companyId: string;
    terminalId: string;
    amountCents: number;
    currency: PaymentCurrency;
    customerId: string | null;
    description: string | null;
    /** What the portal asked this payment for (a token order, an invoice). */
    purpose?: PaymentPurpose;
    requestedBy: string;
    now: Date;
    expiresAt: Date;
    /** The customer agreed to have the card saved (only with a customer). */
    saveCard?: boolean;
  };
};
/** An off-session charge of a customer's saved card: no terminal, no card present. */
export type RequestCardCharge = {
  type: 'RequestCardCharge';
  data: {
    paymentId: string;
    companyId: string;
    customerId: string;
    paymentMethodId: string;
    cardToken: string;
    amountCents: number;
    currency: PaymentCurrency;
    description: string | null;
    /** What the portal asked this payment for (a token order, an invoice). */
    purpose?: PaymentPurpose;
    requestedBy: string;
    now: Date;
    expiresAt: Date;
  };
};
export type MarkSentToTerminal = {
  type: 'MarkSentToTerminal';
  data: { gatewayPaymentId: string; now: Date };
};
export type RecordGatewayEvent = { type: 'RecordGatewayEvent'; data: { event: GatewayEvent } };
export type CancelPayment = {
  type: 'CancelPayment';
  data: { companyId: string; actorId: string; now: Date };
};
export type ExpirePayment = { type: 'ExpirePayment'; data: { now: Date } };
export type RefundPayment = {
  type: 'RefundPayment';
  data: {
    companyId: string;
    refundId: string;
    amountCents: number;
    reason: string;
    actorId: string;
    now: Date;
  };
};

/** The processor confirmed a recorded refund. */
export type ConfirmRefund = { type: 'ConfirmRefund'; data: { refundId: string; now: Date } };

/** The processor refused a recorded refund for good. */
export type FailRefund = {
  type: 'FailRefund';
  data: { refundId: string; reason: string; now: Date };
};

export type PaymentCommand =
  | ConfirmRefund
  | FailRefund
  | RequestPayment
  | RequestCardCharge
  | MarkSentToTerminal
  | RecordGatewayEvent
  | CancelPayment
  | ExpirePayment
  | RefundPayment;

export const refundExceedsMessage = (refundable: number) =>
  `The refund exceeds what remains refundable (${refundable} cents)`;

export function decidePayment(command: PaymentCommand, state: Payment): PaymentEvent[] {
  if (command.type === 'RequestPayment') return requestPayment(command, state);
  if (command.type === 'RequestCardCharge') return requestCardCharge(command, state);
  if (state.status === 'none') throw notFound('Payment');
  switch (command.type) {
    case 'MarkSentToTerminal':
      return markSent(command, state);
    case 'RecordGatewayEvent':
      return recordGatewayEvent(command.data.event, state);
    case 'CancelPayment':
      return cancel(command, ownPayment(state, command.data.companyId));
    case 'ExpirePayment':
      return expire(command, state);
    case 'RefundPayment':
      return refund(command, ownPayment(state, command.data.companyId));
    case 'ConfirmRefund':
      return confirmRefund(command, state);
    case 'FailRefund':
      return failRefund(command, state);
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}

function ownPayment(state: PaymentDetails, companyId: string): PaymentDetails {
  if (state.companyId !== companyId) throw notFound('Payment');
  return state;
}

const ids = (state: PaymentDetails) => ({
  paymentId: state.paymentId,
  companyId: state.companyId,
});

const waitingForCard = (state: PaymentDetails) =>
  state.status === 'pending' || state.status === 'sent';

export function checkAmount(amountCents: number, field = 'amountCents'): void {
  if (
    !Number.isSafeInteger(amountCents) ||
    amountCents < minPaymentCents ||
    amountCents > maxPaymentCents
  ) {
    const message = `Must be a whole number of cents from ${minPaymentCents} to ${maxPaymentCents}`;
    throw invalid(message, { [field]: message });
  }
}

function checkRequest(data: RequestPayment['data'] | RequestCardCharge['data'], state: Payment) {
  if (state.status !== 'none') throw conflict('This payment already exists');
  checkAmount(data.amountCents);
  if (!paymentCurrencies.includes(data.currency)) {
    throw invalid('Payments are in CAD', { currency: 'Must be CAD' });
  }
  if (data.description !== null && data.description.length > maxDescriptionLength) {
    const message = `Max character length is ${maxDescriptionLength}`;
    throw invalid(message, { description: message });
  }
}

export const saveCardNeedsCustomer = 'Saving the card needs a customer: choose one first';

function requestPayment({ data }: RequestPayment, state: Payment): PaymentEvent[] {
  checkRequest(data, state);
  if (data.saveCard && data.customerId === null) {
    throw invalid(saveCardNeedsCustomer, { saveCard: saveCardNeedsCustomer });
  }
  return [
    {
      type: 'PaymentRequested',
      data: {
        paymentId: data.paymentId,
        companyId: data.companyId,
        terminalId: data.terminalId,
        amountCents: data.amountCents,
        currency: data.currency,
        customerId: data.customerId,
        description: data.description,
        ...(data.purpose ? { purpose: data.purpose } : {}),
        requestedBy: data.requestedBy,
        requestedAt: data.now.toISOString(),
        expiresAt: data.expiresAt.toISOString(),
        ...(data.saveCard ? { saveCard: true } : {}),
      },
    },
  ];
}

function requestCardCharge({ data }: RequestCardCharge, state: Payment): PaymentEvent[] {
  checkRequest(data, state);
  return [
    {
      type: 'PaymentRequested',
      data: {
        paymentId: data.paymentId,
        companyId: data.companyId,
        terminalId: offSessionTerminalId,
        amountCents: data.amountCents,
        currency: data.currency,
        customerId: data.customerId,
        description: data.description,
        ...(data.purpose ? { purpose: data.purpose } : {}),
        requestedBy: data.requestedBy,
        requestedAt: data.now.toISOString(),
        expiresAt: data.expiresAt.toISOString(),
        paymentMethodId: data.paymentMethodId,
        cardToken: data.cardToken,
      },
    },
  ];
}

/** Only a payment not yet on its terminal; a repeat (or one that already moved on) changes nothing. */
function markSent({ data }: MarkSentToTerminal, state: PaymentDetails): PaymentEvent[] {
  if (state.status !== 'pending') return [];
  return [
    {
      type: 'PaymentSentToTerminal',
      data: {
        ...ids(state),
        terminalId: state.terminalId,
        gatewayPaymentId: data.gatewayPaymentId,
        sentAt: data.now.toISOString(),
      },
    },
  ];
}

/**
 * The processor's reports arrive at least once and in any order: a seen event id changes nothing,
 * a capture before its authorization records both, anything after a final status is ignored,
 * except a capture: the money moved, so it is recorded even after a cancel or an expiry.
 */
function recordGatewayEvent(event: GatewayEvent, state: PaymentDetails): PaymentEvent[] {
  if (state.seenGatewayEventIds.includes(event.id)) return [];
  const base = { ...ids(state), gatewayEventId: event.id };
  switch (event.type) {
    case 'payment.authorized':
      if (!waitingForCard(state)) return [];
      return [authorized(base, event)];
    case 'payment.captured': {
      if (state.status === 'captured' || state.status === 'declined') return [];
      const capture: PaymentEvent = {
        type: 'PaymentCaptured',
        data: {
          ...base,
          amountCents: event.amountCents,
          currency: state.currency,
          capturedAt: event.occurredAt,
        },
      };
      return state.authorizedAt === null ? [authorized(base, event), capture] : [capture];
    }
    case 'payment.declined':
      if (!waitingForCard(state) && state.status !== 'authorized') return [];
      return [
        {
          type: 'PaymentDeclined',
          data: { ...base, reason: event.reason, declinedAt: event.occurredAt },
        },
      ];
    default: {
      const _exhaustive: never = event;
      return [];
    }
  }
}

function authorized(
  base: { paymentId: string; companyId: string; gatewayEventId: string },
  event: Extract<GatewayEvent, { amountCents: number }>,
): PaymentEvent {
  return {
    type: 'PaymentAuthorized',
    data: {
      ...base,
      amountCents: event.amountCents,
      cardBrand: event.cardBrand,
      cardLast4: event.cardLast4,
      authorizedAt: event.occurredAt,
    },
  };
}

function cancel({ data }: CancelPayment, state: PaymentDetails): PaymentEvent[] {
  if (!waitingForCard(state)) {
    throw conflict(
      `Only a payment still waiting for its card can be cancelled (it is ${state.status})`,
    );
  }
  return [
    {
      type: 'PaymentCancelled',
      data: { ...ids(state), cancelledBy: data.actorId, cancelledAt: data.now.toISOString() },
    },
  ];
}

/** The timeout: nothing to do for a payment that moved on or whose time has not come. */
function expire({ data }: ExpirePayment, state: PaymentDetails): PaymentEvent[] {
  if (!waitingForCard(state) || data.now.getTime() < Date.parse(state.expiresAt)) return [];
  return [{ type: 'PaymentExpired', data: { ...ids(state), expiredAt: data.now.toISOString() } }];
}

function refund({ data }: RefundPayment, state: PaymentDetails): PaymentEvent[] {
  if (state.refunds.some((existing) => existing.id === data.refundId)) return [];
  const reason = data.reason.trim();
  if (!reason) throw invalid('A refund needs a reason', { reason: 'Reason is required' });
  if (reason.length > maxRefundReasonLength) {
    const message = `Max character length is ${maxRefundReasonLength}`;
    throw invalid(message, { reason: message });
  }
  checkAmount(data.amountCents);
  if (state.status !== 'captured') {
    throw conflict(`Only a captured payment can be refunded (it is ${state.status})`);
  }
  const refundable = refundableCents(state);
  if (data.amountCents > refundable) {
    const message = refundExceedsMessage(refundable);
    throw conflict(message, { amountCents: message });
  }
  return [
    {
      type: 'PaymentRefunded',
      data: {
        ...ids(state),
        refundId: data.refundId,
        amountCents: data.amountCents,
        currency: state.currency,
        reason,
        refundedBy: data.actorId,
        refundedAt: data.now.toISOString(),
      },
    },
  ];
}

/** Only a pending refund, once: a refund already confirmed or refused stays as it is. */
function confirmRefund({ data }: ConfirmRefund, state: PaymentDetails): PaymentEvent[] {
  const refunded = state.refunds.find((existing) => existing.id === data.refundId);
  if (!refunded) throw notFound('Refund');
  if (refunded.status !== 'pending') return [];
  return [
    {
      type: 'PaymentRefundConfirmed',
      data: { ...ids(state), refundId: refunded.id, confirmedAt: data.now.toISOString() },
    },
  ];
}

/** Only a recorded refund, once: a second refusal of the same refund changes nothing. */
function failRefund({ data }: FailRefund, state: PaymentDetails): PaymentEvent[] {
  const refunded = state.refunds.find((existing) => existing.id === data.refundId);
  if (!refunded) throw notFound('Refund');
  if (refunded.status === 'failed') return [];
  return [
    {
      type: 'PaymentRefundFailed',
      data: {
        ...ids(state),
        refundId: refunded.id,
        amountCents: refunded.amountCents,
        currency: state.currency,
        reason: data.reason,
        failedAt: data.now.toISOString(),
      },
    },
  ];
}

export const paymentDecider = {
  initialState: initialPayment,
  evolve: evolvePayment,
  decide: decidePayment,
};
