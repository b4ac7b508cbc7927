import { createHash } from 'node:crypto';
import { conflict, notFound, streamCategories, streamName } from '@issuer/events';
import { foldStream } from '../http';
import { type CommandOrigin, runOnStream } from '../http/streamCommands';
import type { GatewayEvent } from '../payments/gateway';
import type { PaymentDetails } from '../payments/payment';
import {
  isSavedCard,
  type PaymentMethod,
  type PaymentMethodCommand,
  paymentMethodDecider,
  type SavedCard,
} from './businessLogic';

type Deps = { store: import('@issuer/events').EventStore; clock: () => Date };

export const paymentMethodStream = (paymentMethodId: string) =>
  streamName(streamCategories.paymentMethod, paymentMethodId);

export const isPaymentMethodId = (id: string) =>
  /^pm_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);

/** The card a payment saved: derived from the payment, so a redelivered capture finds it. */
export function paymentMethodIdOf(paymentId: string): string {
  const hex = createHash('sha256').update(`card\n${paymentId}`).digest('hex');
  return `pm_${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export async function loadPaymentMethod(
  deps: Pick<Deps, 'store'>,
  paymentMethodId: string,
): Promise<PaymentMethod> {
  if (!isPaymentMethodId(paymentMethodId)) return { status: 'none' };
  return (await foldStream(deps.store, paymentMethodStream(paymentMethodId), paymentMethodDecider))
    .state;
}

function runOnPaymentMethod(
  deps: Deps,
  paymentMethodId: string,
  command: PaymentMethodCommand,
  origin: CommandOrigin,
) {
  return runOnStream(
    deps,
    paymentMethodStream(paymentMethodId),
    paymentMethodDecider,
    command,
    (state) => (isSavedCard(state) ? state.companyId : undefined),
    origin,
  );
}

/**
 * The capture of a payment whose customer agreed to save the card: records the processor's
 * reusable token (never a number). Safe to repeat: the webhook that carries it is redelivered
 * until answered, and a saved card is saved once.
 */
export async function saveCardOfCapture(
  deps: Deps,
  payment: PaymentDetails,
  event: GatewayEvent,
  origin: CommandOrigin,
) {
  if (event.type !== 'payment.captured' || !payment.saveCard || payment.customerId === null) {
    return undefined;
  }
  const { cardToken, cardExpMonth, cardExpYear } = event;
  if (!cardToken || cardExpMonth === undefined || cardExpYear === undefined) return undefined;
  const paymentMethodId = paymentMethodIdOf(payment.paymentId);
  return runOnPaymentMethod(
    deps,
    paymentMethodId,
    {
      type: 'SaveCard',
      data: {
        paymentMethodId,
        companyId: payment.companyId,
        customerId: payment.customerId,
        paymentId: payment.paymentId,
        cardToken,
        cardBrand: event.cardBrand,
        cardLast4: event.cardLast4,
        expMonth: cardExpMonth,
        expYear: cardExpYear,
        savedBy: payment.requestedBy,
        now: deps.clock(),
      },
    },
    origin,
  );
}

export async function removeCard(
  deps: Deps,
  input: { companyId: string; actorId: string; paymentMethodId: string } & CommandOrigin,
) {
  const state = await loadPaymentMethod(deps, input.paymentMethodId);
  if (!isSavedCard(state) || state.companyId !== input.companyId) {
    throw notFound('Payment method');
  }
  return runOnPaymentMethod(
    deps,
    input.paymentMethodId,
    {
      type: 'RemoveCard',
      data: { companyId: input.companyId, actorId: input.actorId, now: deps.clock() },
    },
    { ...input, userId: input.actorId },
  );
}

export const noSavedCard =
  'This customer has no saved card: take a payment with "save the card" ticked first';

/**
 * The customer's card a subscription may charge: the named one (404 if it is not this
 * customer's, 409 if removed), or else `fallbackId` (the newest saved; 409 when there is none).
 */
export async function usableCard(
  deps: Pick<Deps, 'store'>,
  input: { companyId: string; customerId: string; paymentMethodId: string | null },
  fallbackId: () => Promise<string | undefined>,
): Promise<SavedCard> {
  const id = input.paymentMethodId ?? (await fallbackId());
  if (id === undefined) throw conflict(noSavedCard, { paymentMethodId: noSavedCard });
  const state = await loadPaymentMethod(deps, id);
  if (
    !isSavedCard(state) ||
    state.companyId !== input.companyId ||
    state.customerId !== input.customerId
  ) {
    throw notFound('Payment method');
  }
  if (state.status === 'removed') {
    const text = 'This card was removed: choose another one';
    throw conflict(text, { paymentMethodId: text });
  }
  return state;
}
