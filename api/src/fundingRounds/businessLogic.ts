import { conflict, type FundingRoundEvent, invalid, notFound } from '@issuer/events';
import {
  type ExistingRound,
  evolveRound,
  initialRound,
  isRound,
  type Round,
  type RoundTerms,
  tokensLeft,
} from './round';

interface Acting {
  companyId: string;
  roundId: string;
  /** A user id, or `system` for a process. */
  actorId: string;
  now: Date;
}

export type RoundCommand =
  | { type: 'CreateRound'; data: Acting & { terms: RoundTerms } }
  | { type: 'UpdateRound'; data: Acting & { terms: RoundTerms } }
  | { type: 'OpenRound'; data: Acting }
  | { type: 'CloseRound'; data: Acting }
  | { type: 'CancelRound'; data: Acting }
  | {
      type: 'ReserveTokens';
      data: Acting & { orderId: string; customerId: string; tokens: number };
    }
  | { type: 'SellTokens'; data: Acting & { orderId: string } }
  | { type: 'ReleaseTokens'; data: Acting & { orderId: string; reason: string } };

const money = (cents: number) => `CAD ${(cents / 100).toFixed(2)}`;

/** Rules on the terms alone: the window, the limits, a raise of at least one token. */
export function checkTerms(terms: RoundTerms) {
  if (Date.parse(terms.closesAt) <= Date.parse(terms.opensAt)) {
    throw invalid('The round must close after it opens', { closesAt: 'Must be after opensAt' });
  }
  if (terms.raiseAmountCents < terms.tokenPriceCents) {
    throw invalid('The raise amount buys no token at this price', {
      raiseAmountCents: 'At least the token price',
    });
  }
  const { minInvestmentCents: min, maxInvestmentCents: max } = terms;
  if (min !== null && max !== null && max < min) {
    throw invalid('The maximum investment is below the minimum', {
      maxInvestmentCents: 'At least minInvestmentCents',
    });
  }
  if (min !== null && min > terms.raiseAmountCents) {
    throw invalid('The minimum investment is above the raise amount', {
      minInvestmentCents: 'At most raiseAmountCents',
    });
  }
}

function existing(state: Round, companyId: string): ExistingRound {
  if (!isRound(state) || state.companyId !== companyId) throw notFound('Funding round');
  return state;
}

const stateMessage = (round: ExistingRound, action: string) =>
  `A ${round.status} round cannot be ${action}`;

function decideReserve(
  command: Extract<RoundCommand, { type: 'ReserveTokens' }>,
  round: ExistingRound,
): FundingRoundEvent[] {
  const { orderId, customerId, tokens, now } = command.data;
  if (round.reservations[orderId]) return [];
  if (round.status !== 'open') {
    throw conflict(`The round is ${round.status}: it takes no orders`, { roundId: 'Not open' });
  }
  if (now.getTime() < Date.parse(round.terms.opensAt)) {
    const text = `The round opens at ${round.terms.opensAt}`;
    throw conflict(text, { roundId: text });
  }
  if (now.getTime() >= Date.parse(round.terms.closesAt)) {
    const text = `The round closed at ${round.terms.closesAt}`;
    throw conflict(text, { roundId: text });
  }
  if (!Number.isSafeInteger(tokens) || tokens < 1) {
    throw invalid('At least 1 whole token', { tokens: 'At least 1 whole token' });
  }
  const amountCents = tokens * round.terms.tokenPriceCents;
  const { minInvestmentCents: min, maxInvestmentCents: max } = round.terms;
  if (min !== null && amountCents < min) {
    const text = `The minimum investment is ${money(min)}`;
    throw invalid(text, { tokens: text });
  }
  if (max !== null) {
    const already = Object.values(round.reservations)
      .filter((r) => r.customerId === customerId && r.state !== 'released')
      .reduce((sum, r) => sum + r.amountCents, 0);
    if (already + amountCents > max) {
      const text = `The maximum investment is ${money(max)} per investor (${money(already)} ordered already)`;
      throw conflict(text, { tokens: text });
    }
  }
  const left = tokensLeft(round);
  if (tokens > left) {
    const text = left === 0 ? 'The round is sold out' : `Only ${left} tokens are left`;
    throw conflict(text, { tokens: text });
  }
  return [
    {
      type: 'RoundTokensReserved',
      data: {
        companyId: round.companyId,
        roundId: round.roundId,
        orderId,
        customerId,
        tokens,
        amountCents,
        reservedAt: now.toISOString(),
      },
    },
  ];
}

export function decideRound(command: RoundCommand, state: Round): FundingRoundEvent[] {
  const { companyId, roundId, actorId, now } = command.data;
  const at = now.toISOString();
  if (command.type === 'CreateRound') {
    if (isRound(state)) return [];
    checkTerms(command.data.terms);
    return [
      {
        type: 'FundingRoundCreated',
        data: {
          companyId,
          roundId,
          ...command.data.terms,
          currency: 'CAD',
          createdBy: actorId,
          createdAt: at,
        },
      },
    ];
  }
  const round = existing(state, companyId);
  const ids = { companyId, roundId };
  switch (command.type) {
    case 'UpdateRound':
      if (round.status !== 'draft') throw conflict('Only a draft round can be changed');
      checkTerms(command.data.terms);
      return [
        {
          type: 'FundingRoundUpdated',
          data: {
            ...ids,
            ...command.data.terms,
            currency: 'CAD',
            updatedBy: actorId,
            updatedAt: at,
          },
        },
      ];
    case 'OpenRound':
      if (round.status === 'open') return [];
      if (round.status !== 'draft') throw conflict(stateMessage(round, 'opened'));
      if (now.getTime() >= Date.parse(round.terms.closesAt)) {
        throw conflict('The round closes in the past: change closesAt first', {
          closesAt: 'In the past',
        });
      }
      return [{ type: 'FundingRoundOpened', data: { ...ids, openedBy: actorId, openedAt: at } }];
    case 'CloseRound':
      if (round.status === 'closed') return [];
      if (round.status !== 'open') throw conflict(stateMessage(round, 'closed'));
      return [{ type: 'FundingRoundClosed', data: { ...ids, closedBy: actorId, closedAt: at } }];
    case 'CancelRound': {
      if (round.status === 'cancelled') return [];
      if (round.status === 'closed') throw conflict(stateMessage(round, 'cancelled'));
      const orders = Object.values(round.reservations);
      const paid = orders.filter((r) => r.state === 'sold').length;
      // Paid tokens may already be with the investor: such a round can only be closed.
      if (paid > 0) {
        throw conflict(
          paid === 1
            ? 'An order of this round is paid for: close the round instead'
            : `${paid} orders of this round are paid for: close the round instead`,
        );
      }
      const awaiting = orders.filter((r) => r.state === 'reserved').length;
      if (awaiting > 0) {
        throw conflict(
          awaiting === 1
            ? 'An order of this round awaits payment: cancel it first'
            : `${awaiting} orders of this round await payment: cancel them first`,
        );
      }
      return [
        { type: 'FundingRoundCancelled', data: { ...ids, cancelledBy: actorId, cancelledAt: at } },
      ];
    }
    case 'ReserveTokens':
      return decideReserve(command, round);
    case 'SellTokens': {
      const known = round.reservations[command.data.orderId];
      if (known?.state !== 'reserved') return [];
      return [
        {
          type: 'RoundTokensSold',
          data: {
            ...ids,
            orderId: command.data.orderId,
            tokens: known.tokens,
            amountCents: known.amountCents,
            soldAt: at,
          },
        },
      ];
    }
    case 'ReleaseTokens': {
      const known = round.reservations[command.data.orderId];
      if (!known || known.state === 'released') return [];
      return [
        {
          type: 'RoundTokensReleased',
          data: {
            ...ids,
            orderId: command.data.orderId,
            tokens: known.tokens,
            reason: command.data.reason,
            releasedAt: at,
          },
        },
      ];
    }
    default: {
      const unknownCommand: never = command;
      return unknownCommand;
    }
  }
}

export const roundDecider = {
  initialState: initialRound,
  evolve: evolveRound,
  decide: decideRound,
};
