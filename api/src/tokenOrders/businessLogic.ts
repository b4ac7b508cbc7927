import { conflict, notFound, type TokenOrderEvent, type TokenOrderPlaced } from '@issuer/events';
import {
  cancellableStatuses,
  evolveOrder,
  initialOrder,
  isOrder,
  type Order,
  type OrderDetails,
  paymentRef,
} from './order';

/** How many times a distribution is tried before the order is held for a person. */
export const maxDistributionAttempts = 3;

type At = { now: Date };

export type OrderCommand =
  | { type: 'PlaceOrder'; data: TokenOrderPlaced['data'] }
  | { type: 'MarkPaymentRequested'; data: At }
  | { type: 'RecordFundsReceived'; data: At & { amountCents: number } }
  | { type: 'RecordPaymentFailed'; data: At & { reason: string } }
  | { type: 'StartDistribution'; data: At & { attempt: number; manual?: boolean } }
  | { type: 'RecordDistributionFailed'; data: At & { attempt: number; error: string } }
  | {
      type: 'RecordTokensDistributed';
      data: At & { transactionHash: string; blockNumber: number };
    }
  | { type: 'CompleteOrder'; data: At & { issuanceId: string } }
  | { type: 'CancelOrder'; data: At & { companyId: string; actorId: string; reason: string } }
  | { type: 'RecordRefund'; data: At & { refundId: string; amountCents: number } };

const ids = (state: OrderDetails) => ({ companyId: state.companyId, orderId: state.orderId });

/**
 * The order's lifecycle. Commands from the process (payment outcomes, distribution steps) are
 * idempotent: in any other state than the one they move from, they append nothing, so a replay
 * or a second delivery never acts twice.
 */
export function decideOrder(command: OrderCommand, state: Order): TokenOrderEvent[] {
  if (command.type === 'PlaceOrder') {
    return isOrder(state) ? [] : [{ type: 'TokenOrderPlaced', data: command.data }];
  }
  if (!isOrder(state)) throw notFound('Token order');
  const at = command.data.now.toISOString();
  switch (command.type) {
    case 'MarkPaymentRequested':
      if (state.status !== 'created') return [];
      return [
        {
          type: 'TokenOrderPaymentRequested',
          data: { ...ids(state), ...paymentRef(state), requestedAt: at },
        },
      ];
    case 'RecordFundsReceived':
      if (!cancellableStatuses.includes(state.status)) return [];
      return [
        {
          type: 'TokenOrderFundsReceived',
          data: {
            ...ids(state),
            ...paymentRef(state),
            amountCents: command.data.amountCents,
            receivedAt: at,
          },
        },
      ];
    case 'RecordPaymentFailed':
      if (!cancellableStatuses.includes(state.status)) return [];
      return [
        {
          type: 'TokenOrderPaymentFailed',
          data: {
            ...ids(state),
            ...paymentRef(state),
            reason: command.data.reason,
            failedAt: at,
          },
        },
      ];
    case 'StartDistribution': {
      const { attempt, manual } = command.data;
      const next =
        state.status === 'funds_received' ||
        (state.status === 'distribution_failed' && (!state.held || manual === true));
      if (!next) {
        if (manual) throw conflict(`A ${state.status} order has nothing to distribute`);
        return [];
      }
      if (attempt !== state.attempts + 1) return [];
      return [
        { type: 'TokenOrderDistributionStarted', data: { ...ids(state), attempt, startedAt: at } },
      ];
    }
    case 'RecordDistributionFailed':
      if (state.status !== 'distributing' || state.attempts !== command.data.attempt) return [];
      return [
        {
          type: 'TokenOrderDistributionFailed',
          data: {
            ...ids(state),
            attempt: command.data.attempt,
            error: command.data.error,
            held: command.data.attempt % maxDistributionAttempts === 0,
            failedAt: at,
          },
        },
      ];
    case 'RecordTokensDistributed':
      if (state.status !== 'distributing') return [];
      return [
        {
          type: 'TokenOrderTokensDistributed',
          data: {
            ...ids(state),
            transactionHash: command.data.transactionHash,
            blockNumber: command.data.blockNumber,
            walletAddress: state.walletAddress,
            distributedAt: at,
          },
        },
      ];
    case 'CompleteOrder':
      if (state.status !== 'tokens_distributed') return [];
      return [
        {
          type: 'TokenOrderCompleted',
          data: { ...ids(state), issuanceId: command.data.issuanceId, completedAt: at },
        },
      ];
    case 'CancelOrder': {
      if (state.companyId !== command.data.companyId) throw notFound('Token order');
      if (state.status === 'cancelled') return [];
      if (!cancellableStatuses.includes(state.status)) {
        const refund =
          state.status === 'funds_received' || state.status === 'distribution_failed'
            ? ': its funds were received, refund it instead'
            : '';
        throw conflict(`A ${state.status.replace('_', ' ')} order cannot be cancelled${refund}`);
      }
      return [
        {
          type: 'TokenOrderCancelled',
          data: {
            ...ids(state),
            cancelledBy: command.data.actorId,
            reason: command.data.reason,
            cancelledAt: at,
          },
        },
      ];
    }
    case 'RecordRefund':
      if (
        state.status !== 'funds_received' &&
        state.status !== 'distribution_failed' &&
        state.status !== 'distributing'
      ) {
        return [];
      }
      return [
        {
          type: 'TokenOrderRefunded',
          data: {
            ...ids(state),
            ...paymentRef(state),
            refundId: command.data.refundId,
            amountCents: command.data.amountCents,
            refundedAt: at,
          },
        },
      ];
    default: {
      const unknownCommand: never = command;
      return unknownCommand;
    }
  }
}

export const orderDecider = {
  initialState: initialOrder,
  evolve: evolveOrder,
  decide: decideOrder,
};
