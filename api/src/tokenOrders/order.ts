import type { TokenOrderEvent } from '@issuer/events';

export const orderStatuses = [
  'created',
  'awaiting_payment',
  'funds_received',
  'distributing',
  'distribution_failed',
  'tokens_distributed',
  'complete',
  'payment_failed',
  'cancelled',
  'refunded',
] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export const orderPaymentMethods = ['terminal', 'etransfer'] as const;
export type OrderPaymentMethod = (typeof orderPaymentMethods)[number];

export interface OrderDetails {
  status: OrderStatus;
  companyId: string;
  orderId: string;
  roundId: string;
  customerId: string;
  shareClassId: string;
  tokens: number;
  tokenPriceCents: number;
  amountCents: number;
  currency: 'CAD';
  walletAddress: string;
  paymentMethod: OrderPaymentMethod;
  /** A terminal order's terminal and payment; null for an e-transfer order. */
  terminalId: string | null;
  paymentId: string | null;
  /** An e-transfer order's money request; null for a terminal order. */
  etransferId: string | null;
  placedBy: string;
  placedAt: string;
  updatedAt: string;
  /** Distribution attempts made; `held` once the last one failed (a person acts). */
  attempts: number;
  held: boolean;
  lastError: string | null;
  transactionHash: string | null;
  blockNumber: number | null;
  issuanceId: string | null;
  refundId: string | null;
  /** Why it ended in a failure branch: the payment's end, the cancel's reason. */
  failureReason: string | null;
  history: { status: OrderStatus; at: string }[];
}

export type Order = { status: 'none' } | OrderDetails;

/** What follow-up events name the order's money by: its payment, or its e-transfer request. */
export function paymentRef(state: OrderDetails): { paymentId: string } | { etransferId: string } {
  if (state.etransferId) return { etransferId: state.etransferId };
  return { paymentId: state.paymentId ?? '' };
}
export const isOrder = (state: Order): state is OrderDetails => state.status !== 'none';
export const initialOrder = (): Order => ({ status: 'none' });

/** Before its money arrived: the order can still be cancelled (its payment with it). */
export const cancellableStatuses: readonly OrderStatus[] = ['created', 'awaiting_payment'];
/** The money arrived and no token went out: the order can be refunded. */
export const refundableStatuses: readonly OrderStatus[] = ['funds_received', 'distribution_failed'];

function moved(state: OrderDetails, status: OrderStatus, at: string): OrderDetails {
  return { ...state, status, updatedAt: at, history: [...state.history, { status, at }] };
}

export function evolveOrder(state: Order, event: TokenOrderEvent): Order {
  if (event.type === 'TokenOrderPlaced') {
    const { placedAt, terminalId, paymentId, etransferId, ...data } = event.data;
    return {
      ...data,
      terminalId: terminalId ?? null,
      paymentId: paymentId ?? null,
      etransferId: etransferId ?? null,
      status: 'created',
      placedAt,
      updatedAt: placedAt,
      attempts: 0,
      held: false,
      lastError: null,
      transactionHash: null,
      blockNumber: null,
      issuanceId: null,
      refundId: null,
      failureReason: null,
      history: [{ status: 'created', at: placedAt }],
    };
  }
  if (!isOrder(state)) return state;
  switch (event.type) {
    case 'TokenOrderPaymentRequested':
      return moved(state, 'awaiting_payment', event.data.requestedAt);
    case 'TokenOrderFundsReceived':
      return moved(state, 'funds_received', event.data.receivedAt);
    case 'TokenOrderPaymentFailed':
      return {
        ...moved(state, 'payment_failed', event.data.failedAt),
        failureReason: event.data.reason,
      };
    case 'TokenOrderDistributionStarted':
      return {
        ...moved(state, 'distributing', event.data.startedAt),
        attempts: event.data.attempt,
        held: false,
      };
    case 'TokenOrderDistributionFailed':
      return {
        ...moved(state, 'distribution_failed', event.data.failedAt),
        held: event.data.held,
        lastError: event.data.error,
      };
    case 'TokenOrderTokensDistributed':
      return {
        ...moved(state, 'tokens_distributed', event.data.distributedAt),
        transactionHash: event.data.transactionHash,
        blockNumber: event.data.blockNumber,
        lastError: null,
      };
    case 'TokenOrderCompleted':
      return {
        ...moved(state, 'complete', event.data.completedAt),
        issuanceId: event.data.issuanceId,
      };
    case 'TokenOrderCancelled':
      return {
        ...moved(state, 'cancelled', event.data.cancelledAt),
        failureReason: event.data.reason,
      };
    case 'TokenOrderRefunded':
      return { ...moved(state, 'refunded', event.data.refundedAt), refundId: event.data.refundId };
    default: {
      const unknownEvent: never = event;
      return unknownEvent;
    }
  }
}
