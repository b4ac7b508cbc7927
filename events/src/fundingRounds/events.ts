import { z } from 'zod';

/**
 * Events of funding rounds and token orders.
 *
 * `FundingRound-<roundId>`: a round's terms and states (draft → open → closed, or cancelled) and
 * every reservation of its tokens. The stream is the guard of "never sell more than offered":
 * each reservation is appended with the stream's expected revision, so concurrent orders are
 * decided one after the other. `FundingRoundHandle-<companyId>:<handle>` makes a handle unique in
 * its company. `TokenOrder-<orderId>`: one order's lifecycle. Names and fields are stable forever:
 * add optional fields only.
 */

const time = z.string();
const cents = z.number().int();
const round = { companyId: z.string(), roundId: z.string() };

export const fundingRoundTerms = {
  name: z.string(),
  handle: z.string(),
  shareClassId: z.string(),
  currency: z.literal('CAD'),
  tokenPriceCents: cents,
  raiseAmountCents: cents,
  minInvestmentCents: cents.nullable(),
  maxInvestmentCents: cents.nullable(),
  opensAt: time,
  closesAt: time,
  description: z.string(),
  images: z.array(z.string()),
};

export const fundingRoundCreatedData = z.object({
  ...round,
  ...fundingRoundTerms,
  createdBy: z.string(),
  createdAt: time,
});
/** A draft's terms, whole. */
export const fundingRoundUpdatedData = z.object({
  ...round,
  ...fundingRoundTerms,
  updatedBy: z.string(),
  updatedAt: time,
});
export const fundingRoundOpenedData = z.object({ ...round, openedBy: z.string(), openedAt: time });
export const fundingRoundClosedData = z.object({ ...round, closedBy: z.string(), closedAt: time });
export const fundingRoundCancelledData = z.object({
  ...round,
  cancelledBy: z.string(),
  cancelledAt: time,
});
/** An order holds `tokens` of the round until its payment ends (sold) or fails (released). */
export const roundTokensReservedData = z.object({
  ...round,
  orderId: z.string(),
  customerId: z.string(),
  tokens: z.number().int(),
  amountCents: cents,
  reservedAt: time,
});
/** A reservation (or a sale, on a refund) given back to the round. */
export const roundTokensReleasedData = z.object({
  ...round,
  orderId: z.string(),
  tokens: z.number().int(),
  reason: z.string(),
  releasedAt: time,
});
/** The order's money arrived: its reserved tokens count as purchased. */
export const roundTokensSoldData = z.object({
  ...round,
  orderId: z.string(),
  tokens: z.number().int(),
  amountCents: cents,
  soldAt: time,
});

export const fundingRoundHandleData = z.object({
  companyId: z.string(),
  handle: z.string(),
  roundId: z.string(),
});

type Event<Type extends string, Schema extends z.ZodType> = { type: Type; data: z.infer<Schema> };

export type FundingRoundCreated = Event<'FundingRoundCreated', typeof fundingRoundCreatedData>;
export type FundingRoundUpdated = Event<'FundingRoundUpdated', typeof fundingRoundUpdatedData>;
export type FundingRoundOpened = Event<'FundingRoundOpened', typeof fundingRoundOpenedData>;
export type FundingRoundClosed = Event<'FundingRoundClosed', typeof fundingRoundClosedData>;
export type FundingRoundCancelled = Event<
  'FundingRoundCancelled',
  typeof fundingRoundCancelledData
>;
export type RoundTokensReserved = Event<'RoundTokensReserved', typeof roundTokensReservedData>;
export type RoundTokensReleased = Event<'RoundTokensReleased', typeof roundTokensReleasedData>;
export type RoundTokensSold = Event<'RoundTokensSold', typeof roundTokensSoldData>;
export type FundingRoundEvent =
  | FundingRoundCreated
  | FundingRoundUpdated
  | FundingRoundOpened
  | FundingRoundClosed
  | FundingRoundCancelled
  | RoundTokensReserved
  | RoundTokensReleased
  | RoundTokensSold;

export type FundingRoundHandleReserved = Event<
  'FundingRoundHandleReserved',
  typeof fundingRoundHandleData
>;
export type FundingRoundHandleReleased = Event<
  'FundingRoundHandleReleased',
  typeof fundingRoundHandleData
>;
export type FundingRoundHandleEvent = FundingRoundHandleReserved | FundingRoundHandleReleased;

export const fundingRoundEventSchemas = {
  FundingRoundCreated: fundingRoundCreatedData,
  FundingRoundUpdated: fundingRoundUpdatedData,
  FundingRoundOpened: fundingRoundOpenedData,
  FundingRoundClosed: fundingRoundClosedData,
  FundingRoundCancelled: fundingRoundCancelledData,
  RoundTokensReserved: roundTokensReservedData,
  RoundTokensReleased: roundTokensReleasedData,
  RoundTokensSold: roundTokensSoldData,
} as const satisfies Record<FundingRoundEvent['type'], z.ZodType>;

export const fundingRoundHandleEventSchemas = {
  FundingRoundHandleReserved: fundingRoundHandleData,
  FundingRoundHandleReleased: fundingRoundHandleData,
} as const satisfies Record<FundingRoundHandleEvent['type'], z.ZodType>;

export const fundingRoundEventTypes = Object.keys(
  fundingRoundEventSchemas,
) as FundingRoundEvent['type'][];

export function asFundingRoundEvent(event: {
  type: string;
  data: unknown;
}): FundingRoundEvent | undefined {
  return Object.hasOwn(fundingRoundEventSchemas, event.type)
    ? (event as FundingRoundEvent)
    : undefined;
}

/* Token orders ------------------------------------------------------------------------------ */

const order = { companyId: z.string(), orderId: z.string() };

export const tokenOrderPaymentMethods = ['terminal', 'etransfer'] as const;

export const tokenOrderPlacedData = z.object({
  ...order,
  roundId: z.string(),
  customerId: z.string(),
  shareClassId: z.string(),
  tokens: z.number().int(),
  tokenPriceCents: cents,
  amountCents: cents,
  currency: z.literal('CAD'),
  walletAddress: z.string(),
  paymentMethod: z.enum(tokenOrderPaymentMethods),
  /** The terminal and its payment: a terminal order's (absent from an e-transfer order's). */
  terminalId: z.string().optional(),
  paymentId: z.string().optional(),
  /** The e-transfer money request that collects an e-transfer order (absent before). */
  etransferId: z.string().optional(),
  placedBy: z.string(),
  placedAt: time,
});
export const tokenOrderPaymentRequestedData = z.object({
  ...order,
  /** A terminal order's payment; an e-transfer order names its request instead. */
  paymentId: z.string().optional(),
  etransferId: z.string().optional(),
  requestedAt: time,
});
export const tokenOrderFundsReceivedData = z.object({
  ...order,
  /** A terminal order's payment; an e-transfer order names its request instead. */
  paymentId: z.string().optional(),
  etransferId: z.string().optional(),
  amountCents: cents,
  receivedAt: time,
});
export const tokenOrderPaymentFailedData = z.object({
  ...order,
  /** A terminal order's payment; an e-transfer order names its request instead. */
  paymentId: z.string().optional(),
  etransferId: z.string().optional(),
  /** declined, expired or cancelled (the payment's end). */
  reason: z.string(),
  failedAt: time,
});
export const tokenOrderDistributionStartedData = z.object({
  ...order,
  attempt: z.number().int(),
  startedAt: time,
});
export const tokenOrderDistributionFailedData = z.object({
  ...order,
  attempt: z.number().int(),
  error: z.string(),
  /** The last attempt failed: the order waits for a person. */
  held: z.boolean(),
  failedAt: time,
});
export const tokenOrderTokensDistributedData = z.object({
  ...order,
  transactionHash: z.string(),
  blockNumber: z.number().int(),
  walletAddress: z.string(),
  distributedAt: time,
});
export const tokenOrderCompletedData = z.object({
  ...order,
  issuanceId: z.string(),
  completedAt: time,
});
export const tokenOrderCancelledData = z.object({
  ...order,
  cancelledBy: z.string(),
  reason: z.string(),
  cancelledAt: time,
});
export const tokenOrderRefundedData = z.object({
  ...order,
  /** A terminal order's payment; an e-transfer order names its request instead. */
  paymentId: z.string().optional(),
  etransferId: z.string().optional(),
  refundId: z.string(),
  amountCents: cents,
  refundedAt: time,
});

export type TokenOrderPlaced = Event<'TokenOrderPlaced', typeof tokenOrderPlacedData>;
export type TokenOrderPaymentRequested = Event<
  'TokenOrderPaymentRequested',
  typeof tokenOrderPaymentRequestedData
>;
export type TokenOrderFundsReceived = Event<
  'TokenOrderFundsReceived',
  typeof tokenOrderFundsReceivedData
>;
export type TokenOrderPaymentFailed = Event<
  'TokenOrderPaymentFailed',
  typeof tokenOrderPaymentFailedData
>;
export type TokenOrderDistributionStarted = Event<
  'TokenOrderDistributionStarted',
  typeof tokenOrderDistributionStartedData
>;
export type TokenOrderDistributionFailed = Event<
  'TokenOrderDistributionFailed',
  typeof tokenOrderDistributionFailedData
>;
export type TokenOrderTokensDistributed = Event<
  'TokenOrderTokensDistributed',
  typeof tokenOrderTokensDistributedData
>;
export type TokenOrderCompleted = Event<'TokenOrderCompleted', typeof tokenOrderCompletedData>;
export type TokenOrderCancelled = Event<'TokenOrderCancelled', typeof tokenOrderCancelledData>;
export type TokenOrderRefunded = Event<'TokenOrderRefunded', typeof tokenOrderRefundedData>;
export type TokenOrderEvent =
  | TokenOrderPlaced
  | TokenOrderPaymentRequested
  | TokenOrderFundsReceived
  | TokenOrderPaymentFailed
  | TokenOrderDistributionStarted
  | TokenOrderDistributionFailed
  | TokenOrderTokensDistributed
  | TokenOrderCompleted
  | TokenOrderCancelled
  | TokenOrderRefunded;

export const tokenOrderEventSchemas = {
  TokenOrderPlaced: tokenOrderPlacedData,
  TokenOrderPaymentRequested: tokenOrderPaymentRequestedData,
  TokenOrderFundsReceived: tokenOrderFundsReceivedData,
  TokenOrderPaymentFailed: tokenOrderPaymentFailedData,
  TokenOrderDistributionStarted: tokenOrderDistributionStartedData,
  TokenOrderDistributionFailed: tokenOrderDistributionFailedData,
  TokenOrderTokensDistributed: tokenOrderTokensDistributedData,
  TokenOrderCompleted: tokenOrderCompletedData,
  TokenOrderCancelled: tokenOrderCancelledData,
  TokenOrderRefunded: tokenOrderRefundedData,
} as const satisfies Record<TokenOrderEvent['type'], z.ZodType>;

export const tokenOrderEventTypes = Object.keys(
  tokenOrderEventSchemas,
) as TokenOrderEvent['type'][];

export function asTokenOrderEvent(event: {
  type: string;
  data: unknown;
}): TokenOrderEvent | undefined {
  return Object.hasOwn(tokenOrderEventSchemas, event.type) ? (event as TokenOrderEvent) : undefined;
}
