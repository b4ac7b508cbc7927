import { notFound, type PaymentMethodEvent } from '@issuer/events';

/** A saved card as its stream knows it; the token is only ever handed to the gateway. */
export interface SavedCard {
  status: 'saved' | 'removed';
  paymentMethodId: string;
  companyId: string;
  customerId: string;
  cardToken: string;
  cardBrand: string;
  cardLast4: string;
  expMonth: number;
  expYear: number;
  paymentId: string;
  savedAt: string;
  removedAt: string | null;
}

export type PaymentMethod = { status: 'none' } | SavedCard;

export const isSavedCard = (state: PaymentMethod): state is SavedCard => state.status !== 'none';

export type PaymentMethodCommand =
  | {
      type: 'SaveCard';
      data: {
        paymentMethodId: string;
        companyId: string;
        customerId: string;
        paymentId: string;
        cardToken: string;
        cardBrand: string;
        cardLast4: string;
        expMonth: number;
        expYear: number;
        savedBy: string;
        now: Date;
      };
    }
  | { type: 'RemoveCard'; data: { companyId: string; actorId: string; now: Date } };

export function evolvePaymentMethod(
  state: PaymentMethod,
  event: PaymentMethodEvent,
): PaymentMethod {
  switch (event.type) {
    case 'CardSaved': {
      const { data } = event;
      return {
        status: 'saved',
        paymentMethodId: data.paymentMethodId,
        companyId: data.companyId,
        customerId: data.customerId,
        cardToken: data.cardToken,
        cardBrand: data.cardBrand,
        cardLast4: data.cardLast4,
        expMonth: data.expMonth,
        expYear: data.expYear,
        paymentId: data.paymentId,
        savedAt: data.savedAt,
        removedAt: null,
      };
    }
    case 'CardRemoved':
      return isSavedCard(state)
        ? { ...state, status: 'removed', removedAt: event.data.removedAt }
        : state;
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}

/**
 * Saving is idempotent (the id derives from the payment, so a redelivered capture saves nothing
 * twice); removing is recorded once, and another company's card is "not found".
 */
export function decidePaymentMethod(
  command: PaymentMethodCommand,
  state: PaymentMethod,
): PaymentMethodEvent[] {
  if (command.type === 'SaveCard') {
    if (state.status !== 'none') return [];
    const { now, ...data } = command.data;
    return [{ type: 'CardSaved', data: { ...data, savedAt: now.toISOString() } }];
  }
  if (!isSavedCard(state) || state.companyId !== command.data.companyId) {
    throw notFound('Payment method');
  }
  if (state.status === 'removed') return [];
  return [
    {
      type: 'CardRemoved',
      data: {
        paymentMethodId: state.paymentMethodId,
        companyId: state.companyId,
        customerId: state.customerId,
        removedBy: command.data.actorId,
        removedAt: command.data.now.toISOString(),
      },
    },
  ];
}

export const paymentMethodDecider = {
  initialState: (): PaymentMethod => ({ status: 'none' }),
  evolve: evolvePaymentMethod,
  decide: decidePaymentMethod,
};
