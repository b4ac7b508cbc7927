import { createHash, randomUUID } from 'node:crypto';
import {
  conflict,
  DomainError,
  type InvestorStatus,
  notFound,
  type PaymentPurpose,
  streamCategories,
  streamName,
} from '@issuer/events';
import { customerDecider } from '../customers/businessLogic';
import { customerStream } from '../customers/customerCommands';
import { walletAddressProblem } from '../customers/walletAddress';
import { defaultExpiryDays } from '../etransfers/businessLogic';
import {
  cancelEtransfer,
  customerEmail,
  type EtransferDeps,
  providerOf,
  requestMoney,
  sendPayout,
} from '../etransfers/etransferCommands';
import { type Actor, loadRound, runOnRound } from '../fundingRounds/roundCommands';
import { foldStream } from '../http';
import { type CommandOrigin, runOnStream } from '../http/streamCommands';
import {
  cancelPayment,
  checkTerminal,
  newPaymentId,
  type PaymentDeps,
  refundIdFor,
  refundPayment,
  requestPayment,
} from '../payments/paymentCommands';
import { type OrderCommand, orderDecider } from './businessLogic';
import { cancellableStatuses, isOrder, type OrderDetails, refundableStatuses } from './order';

export type OrderDeps = PaymentDeps & EtransferDeps;

export const orderStream = (orderId: string) => streamName(streamCategories.tokenOrder, orderId);

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
export const isOrderId = (id: string) => new RegExp(`^ord_${uuid}$`).test(id);

/** Investor statuses from which a customer may order: KYC done, not in a failure branch. */
export const orderingStatuses: readonly InvestorStatus[] = [
  'KYC Complete',
  'Documents Signed',
  'Funds Received',
  'Distribute Tokens',
  'Complete',
];

export function runOnOrder(
  deps: Pick<OrderDeps, 'store' | 'clock'>,
  orderId: string,
  command: OrderCommand,
  origin: CommandOrigin = {},
) {
  return runOnStream(
    deps,
    orderStream(orderId),
    orderDecider,
    command,
    (state) => (isOrder(state) ? state.companyId : undefined),
    origin,
  );
}

export async function loadOrder(deps: Pick<OrderDeps, 'store'>, orderId: string) {
  if (!isOrderId(orderId)) return undefined;
  const { state } = await foldStream(deps.store, orderStream(orderId), orderDecider);
  return isOrder(state) ? state : undefined;
}

export async function ownOrder(
  deps: Pick<OrderDeps, 'store'>,
  companyId: string,
  orderId: string,
): Promise<OrderDetails> {
  const order = await loadOrder(deps, orderId);
  if (!order || order.companyId !== companyId) throw notFound('Token order');
  return order;
}

/** Ids derived from the order, so a replay of the process finds what it did before. */
export function derivedId(prefix: string, orderId: string) {
  const hex = createHash('sha256').update(`${prefix}\n${orderId}`).digest('hex');
  return `${prefix}_${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The customer: the company's, with a valid wallet and KYC done; otherwise 404 or 409. */
async function checkInvestor(deps: OrderDeps, companyId: string, customerId: string) {
  const { state } = await foldStream(deps.store, customerStream(customerId), customerDecider);
  if (state.status !== 'active' || state.companyId !== companyId) throw notFound('Customer');
  const missing: string[] = [];
  const fields: Record<string, string> = {};
  const wallet = state.profile.walletAddress.trim();
  if (wallet === '') {
    missing.push('the customer has no wallet address');
    fields.walletAddress = 'The customer has no wallet address';
  } else if (walletAddressProblem(wallet) !== undefined) {
    missing.push('the customer’s wallet address is not a valid Ethereum address');
    fields.walletAddress = 'Not a valid Ethereum address';
  }
  if (!orderingStatuses.includes(state.investorStatus)) {
    const text = `The investor status is ${state.investorStatus}; an order needs at least KYC Complete`;
    missing.push(text.charAt(0).toLowerCase() + text.slice(1));
    fields.investorStatus = text;
  }
  if (missing.length > 0) {
    const message = `The order cannot be placed: ${missing.join('; ')}`;
    throw new DomainError(409, 'investor_not_ready', message, { customerId: message, ...fields });
  }
  return { walletAddress: wallet };
}

export type OrderPayment = { method: 'terminal'; terminalId: string } | { method: 'etransfer' };

export interface PlaceOrderInput extends Actor {
  roundId: string;
  customerId: string;
  tokens: number;
  payment: OrderPayment;
}

/** An e-transfer request expires when the round closes, or after the default, whichever is sooner. */
export function etransferExpiry(now: Date, closesAt: string): Date {
  const byDefault = now.getTime() + defaultExpiryDays * 86_400_000;
  return new Date(Math.min(byDefault, new Date(closesAt).getTime()));
}

/**
 * Places an order: checks the investor and the way it is paid (the terminal, or the provider and
 * the customer's email for an e-transfer), reserves the tokens on the round (the guard: appended
 * with the round's expected revision), records the order, then asks for its money: a payment on
 * the terminal, or an e-transfer money request to the customer (linked by `orderId`, its id
 * derived from the order's). A failure after the reservation gives the tokens back.
 */
export async function placeOrder(deps: OrderDeps, input: PlaceOrderInput) {
  const round = await loadRound(deps, input.roundId);
  if (!round || round.companyId !== input.companyId) throw notFound('Funding round');
  const { walletAddress } = await checkInvestor(deps, input.companyId, input.customerId);
  const { payment } = input;
  if (payment.method === 'terminal') {
    await checkTerminal(deps, input.companyId, payment.terminalId);
  } else {
    providerOf(deps);
    await customerEmail(deps, input.companyId, input.customerId);
  }
  const orderId = `ord_${randomUUID()}`;
  const paymentId = payment.method === 'terminal' ? newPaymentId() : undefined;
  const etransferId = payment.method === 'etransfer' ? derivedId('et', orderId) : undefined;
  const origin = { ...input, userId: input.actorId };
  await runOnRound(deps, input, {
    type: 'ReserveTokens',
    data: { ...input, orderId, now: deps.clock() },
  });
  // Terms are fixed once a round is open: the price is the one the reservation was decided on.
  const amountCents = input.tokens * round.terms.tokenPriceCents;
  const description = `${input.tokens} tokens of ${round.terms.name}`;
  const purpose: PaymentPurpose = {
    kind: 'token_order',
    orderId,
    roundName: round.terms.name,
    tokens: input.tokens,
  };
  try {
    await runOnOrder(
      deps,
      orderId,
      {
        type: 'PlaceOrder',
        data: {
          companyId: input.companyId,
          orderId,
          roundId: input.roundId,
          customerId: input.customerId,
          shareClassId: round.terms.shareClassId,
          tokens: input.tokens,
          tokenPriceCents: round.terms.tokenPriceCents,
          amountCents,
          currency: 'CAD',
          walletAddress,
          paymentMethod: payment.method,
          ...(payment.method === 'terminal' ? { terminalId: payment.terminalId, paymentId } : {}),
          ...(etransferId ? { etransferId } : {}),
          placedBy: input.actorId,
          placedAt: deps.clock().toISOString(),
        },
      },
      origin,
    );
    if (payment.method === 'terminal' && paymentId) {
      await requestPayment(deps, {
        ...input,
        terminalId: payment.terminalId,
        paymentId,
        amountCents,
        currency: 'CAD',
        customerId: input.customerId,
        description,
        purpose,
      });
    } else if (etransferId) {
      await requestMoney(deps, {
        ...origin,
        etransferId,
        orderId,
        customerId: input.customerId,
        amountCents,
        message: `Token order: ${description}`,
        purpose,
        reference: orderId,
        expiresAt: etransferExpiry(deps.clock(), round.terms.closesAt),
      });
    }
  } catch (error) {
    // Nothing waits on a terminal or the customer: the order (if recorded) fails and its tokens go back.
    await runOnOrder(deps, orderId, {
      type: 'RecordPaymentFailed',
      data: { reason: 'not_sent', now: deps.clock() },
    }).catch(() => {});
    await runOnRound(
      deps,
      { ...input, actorId: 'system' },
      {
        type: 'ReleaseTokens',
        data: { ...input, actorId: 'system', orderId, reason: 'not_placed', now: deps.clock() },
      },
    ).catch(() => {});
    throw error;
  }
  const requested = await runOnOrder(
    deps,
    orderId,
    { type: 'MarkPaymentRequested', data: { now: deps.clock() } },
    origin,
  );
  return { orderId, position: requested.position };
}

/** Before its money arrived: the payment is cancelled first (so no capture can follow), then the order. */
export async function cancelOrder(
  deps: OrderDeps,
  input: Actor & { orderId: string; reason: string },
) {
  const order = await ownOrder(deps, input.companyId, input.orderId);
  if (cancellableStatuses.includes(order.status)) {
    if (order.etransferId) {
      await cancelEtransfer(deps, { ...input, etransferId: order.etransferId });
    } else if (order.paymentId) {
      await cancelPayment(deps, { ...input, paymentId: order.paymentId });
    }
  }
  return runOnOrder(
    deps,
    input.orderId,
    { type: 'CancelOrder', data: { ...input, now: deps.clock() } },
    { ...input, userId: input.actorId },
  );
}

/**
 * After its money arrived and before any token went out: the whole payment is refunded; the
 * order process records the refund on the order when the payment reports it.
 */
export async function refundOrder(
  deps: OrderDeps,
  input: Actor & { orderId: string; reason: string },
) {
  const order = await ownOrder(deps, input.companyId, input.orderId);
  if (!refundableStatuses.includes(order.status)) {
    throw conflict(
      `A ${order.status.replace('_', ' ')} order cannot be refunded: only one whose funds were received and whose tokens did not go out`,
    );
  }
  if (order.etransferId) return refundByPayout(deps, input, order);
  return refundPayment(deps, {
    ...input,
    paymentId: order.paymentId ?? '',
    amountCents: order.amountCents,
    refundId: refundIdFor(`token-order\n${order.orderId}`),
  });
}

/**
 * An e-transfer order's refund: the money goes back to the customer as an e-transfer payout
 * (reserved from the company balance first, 409 naming amountCents when it does not cover it), its
 * id derived from the order so a repeat never pays twice; the order is refunded once the payout
 * is recorded. A payout the provider later fails returns to the balance (see the e-transfers).
 */
async function refundByPayout(
  deps: OrderDeps,
  input: Actor & { orderId: string; reason: string },
  order: OrderDetails,
) {
  const refundId = derivedId('et', `refund\n${order.orderId}`);
  await sendPayout(deps, {
    ...input,
    etransferId: refundId,
    customerId: order.customerId,
    amountCents: order.amountCents,
    message: `Refund of token order ${order.orderId}: ${input.reason}`.slice(0, 400),
  });
  return runOnOrder(
    deps,
    order.orderId,
    { type: 'RecordRefund', data: { refundId, amountCents: order.amountCents, now: deps.clock() } },
    { ...input, userId: input.actorId },
  );
}

/** A held distribution, tried again by a person. */
export async function retryDistribution(deps: OrderDeps, input: Actor & { orderId: string }) {
  const order = await ownOrder(deps, input.companyId, input.orderId);
  return runOnOrder(
    deps,
    input.orderId,
    {
      type: 'StartDistribution',
      data: { attempt: order.attempts + 1, manual: true, now: deps.clock() },
    },
    { ...input, userId: input.actorId },
  );
}
