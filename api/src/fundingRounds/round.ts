import type { FundingRoundEvent } from '@issuer/events';

export const roundStatuses = ['draft', 'open', 'closed', 'cancelled'] as const;
export type RoundStatus = (typeof roundStatuses)[number];

/** A round's terms as the commands give them (amounts in CAD cents). */
export interface RoundTerms {
  name: string;
  handle: string;
  shareClassId: string;
  tokenPriceCents: number;
  raiseAmountCents: number;
  minInvestmentCents: number | null;
  maxInvestmentCents: number | null;
  opensAt: string;
  closesAt: string;
  description: string;
  images: string[];
}

export interface Reservation {
  customerId: string;
  tokens: number;
  amountCents: number;
  state: 'reserved' | 'sold' | 'released';
}

/**
 * The write side's view of a round: its terms and every order's reservation, enough to decide
 * "never sell more than offered" and the per-investor maximum on the stream alone.
 */
export type Round =
  | { status: 'none' }
  | {
      status: RoundStatus;
      companyId: string;
      roundId: string;
      createdAt: string;
      terms: RoundTerms;
      reservations: Record<string, Reservation>;
      reserved: number;
      sold: number;
      soldCents: number;
    };
export type ExistingRound = Exclude<Round, { status: 'none' }>;

export const isRound = (state: Round): state is ExistingRound => state.status !== 'none';

export const initialRound = (): Round => ({ status: 'none' });

/** The tokens a round offers: whole tokens its raise amount buys at its price. */
export const offeredTokens = (terms: Pick<RoundTerms, 'raiseAmountCents' | 'tokenPriceCents'>) =>
  Math.floor(terms.raiseAmountCents / terms.tokenPriceCents);

export const tokensLeft = (round: ExistingRound) =>
  offeredTokens(round.terms) - round.reserved - round.sold;

function termsOf(data: RoundTerms & Record<string, unknown>): RoundTerms {
  return {
    name: data.name,
    handle: data.handle,
    shareClassId: data.shareClassId,
    tokenPriceCents: data.tokenPriceCents,
    raiseAmountCents: data.raiseAmountCents,
    minInvestmentCents: data.minInvestmentCents,
    maxInvestmentCents: data.maxInvestmentCents,
    opensAt: data.opensAt,
    closesAt: data.closesAt,
    description: data.description,
    images: data.images,
  };
}

/** Folds in place after the first event: the state is the decider's own, rebuilt per command. */
export function evolveRound(state: Round, event: FundingRoundEvent): Round {
  if (event.type === 'FundingRoundCreated') {
    return {
      status: 'draft',
      companyId: event.data.companyId,
      roundId: event.data.roundId,
      createdAt: event.data.createdAt,
      terms: termsOf(event.data),
      reservations: {},
      reserved: 0,
      sold: 0,
      soldCents: 0,
    };
  }
  if (!isRound(state)) return state;
  switch (event.type) {
    case 'FundingRoundUpdated':
      state.terms = termsOf(event.data);
      return state;
    case 'FundingRoundOpened':
      state.status = 'open';
      return state;
    case 'FundingRoundClosed':
      state.status = 'closed';
      return state;
    case 'FundingRoundCancelled':
      state.status = 'cancelled';
      return state;
    case 'RoundTokensReserved': {
      const { orderId, customerId, tokens, amountCents } = event.data;
      state.reservations[orderId] = { customerId, tokens, amountCents, state: 'reserved' };
      state.reserved += tokens;
      return state;
    }
    case 'RoundTokensSold': {
      const known = state.reservations[event.data.orderId];
      if (known?.state !== 'reserved') return state;
      known.state = 'sold';
      state.reserved -= known.tokens;
      state.sold += known.tokens;
      state.soldCents += known.amountCents;
      return state;
    }
    case 'RoundTokensReleased': {
      const known = state.reservations[event.data.orderId];
      if (!known || known.state === 'released') return state;
      if (known.state === 'sold') {
        state.sold -= known.tokens;
        state.soldCents -= known.amountCents;
      } else {
        state.reserved -= known.tokens;
      }
      known.state = 'released';
      return state;
    }
    default: {
      const unknownEvent: never = event;
      return unknownEvent;
    }
  }
}
