/** A funding round as `/api/funding-rounds` answers it. */
export interface Round {
  id: string;
  name: string;
  handle: string;
  status: 'draft' | 'open' | 'closed' | 'cancelled';
  shareClassId: string;
  currency: 'CAD';
  tokenPriceCents: number;
  raiseAmountCents: number;
  minInvestmentCents: number | null;
  maxInvestmentCents: number | null;
  opensAt: string;
  closesAt: string;
  description: string;
  images: string[];
  tokensOffered: number;
  tokensReserved: number;
  tokensAvailable: number;
  tokensPurchased: number;
  amountRaisedCents: number;
  percentageComplete: number;
  remainingDays: number;
}

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

/** A token order as `/api/token-orders` answers it. */
export interface TokenOrder {
  id: string;
  status: (typeof orderStatuses)[number];
  roundId: string;
  roundName: string | null;
  customerId: string;
  customerName: string | null;
  tokens: number;
  amountCents: number;
  paymentMethod: 'terminal' | 'etransfer';
  paymentId: string | null;
  etransferId: string | null;
  held: boolean;
  transactionHash: string | null;
  blockNumber: number | null;
  walletAddress: string;
  issuanceId: string | null;
  failureReason: string | null;
  lastError: string | null;
  history: { status: (typeof orderStatuses)[number]; at: string }[];
  placedAt: string;
}

export const statusColor = {
  draft: 'default',
  open: 'success',
  closed: 'info',
  cancelled: 'warning',
} as const;

export const orderColor = (status: TokenOrder['status']) =>
  status === 'complete'
    ? 'success'
    : status === 'payment_failed' || status === 'distribution_failed'
      ? 'error'
      : status === 'cancelled' || status === 'refunded'
        ? 'warning'
        : 'info';
