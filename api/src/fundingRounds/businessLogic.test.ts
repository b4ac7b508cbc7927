import type { FundingRoundEvent } from '@issuer/events';
import { describe, expect, it } from 'vitest';
import { deciderSpecification } from '../auth/testing/deciderSpecification';
import { type RoundCommand, roundDecider } from './businessLogic';

const spec = deciderSpecification(roundDecider);
const companyId = 'c-1';
const roundId = 'rnd_1';
const actorId = 'u-1';
const now = new Date('2026-03-01T12:00:00.000Z');
const at = now.toISOString();
const day = 86_400_000;
const terms = {
  name: 'Seed',
  handle: 'seed',
  shareClassId: 'shc_1',
  tokenPriceCents: 100,
  raiseAmountCents: 1000,
  minInvestmentCents: 200,
  maxInvestmentCents: 600,
  opensAt: new Date(now.getTime() - day).toISOString(),
  closesAt: new Date(now.getTime() + day).toISOString(),
  description: '',
  images: [],
};
const acting = { companyId, roundId, actorId, now };
const ids = { companyId, roundId };

const created: FundingRoundEvent = {
  type: 'FundingRoundCreated',
  data: { ...ids, ...terms, currency: 'CAD', createdBy: actorId, createdAt: at },
};
const opened: FundingRoundEvent = {
  type: 'FundingRoundOpened',
  data: { ...ids, openedBy: actorId, openedAt: at },
};
const reserved = (orderId: string, customerId: string, tokens: number): FundingRoundEvent => ({
  type: 'RoundTokensReserved',
  data: { ...ids, orderId, customerId, tokens, amountCents: tokens * 100, reservedAt: at },
});
const reserve = (orderId: string, customerId: string, tokens: number): RoundCommand => ({
  type: 'ReserveTokens',
  data: { ...acting, orderId, customerId, tokens },
});

describe('a round that does not exist', () => {
  it('is created as a draft', () =>
    spec
      .given([])
      .when({ type: 'CreateRound', data: { ...acting, terms } })
      .then([created]));
  it('refuses terms that close before they open', () =>
    spec
      .given([])
      .when({
        type: 'CreateRound',
        data: { ...acting, terms: { ...terms, closesAt: terms.opensAt } },
      })
      .thenThrows({ status: 400, fields: { closesAt: 'Must be after opensAt' } }));
  it('is not found by another command', () =>
    spec.given([]).when({ type: 'OpenRound', data: acting }).thenThrows({ status: 404 }));
});

describe('a draft round', () => {
  it('opens', () => spec.given([created]).when({ type: 'OpenRound', data: acting }).then([opened]));
  it('takes no order', () =>
    spec
      .given([created])
      .when(reserve('o1', 'cu-1', 3))
      .thenThrows({ status: 409 }));
  it('is another company’s: not found', () =>
    spec
      .given([created])
      .when({ type: 'OpenRound', data: { ...acting, companyId: 'c-2' } })
      .thenThrows({ status: 404 }));
});

describe('an open round offering 10 tokens', () => {
  it('reserves tokens for an order', () =>
    spec
      .given([created, opened])
      .when(reserve('o1', 'cu-1', 3))
      .then([reserved('o1', 'cu-1', 3)]));
  it('reserves an order once (a retry with its id appends nothing)', () =>
    spec
      .given([created, opened, reserved('o1', 'cu-1', 3)])
      .when(reserve('o1', 'cu-1', 3))
      .then([]));
  it('never sells more than it offers', () =>
    spec
      .given([created, opened, reserved('o1', 'cu-1', 5), reserved('o2', 'cu-2', 4)])
      .when(reserve('o3', 'cu-3', 2))
      .thenThrows({ status: 409, fields: { tokens: 'Only 1 tokens are left' } }));
  it('counts released tokens as available again', () =>
    spec
      .given([
        created,
        opened,
        reserved('o1', 'cu-1', 5),
        reserved('o2', 'cu-2', 5),
        {
          type: 'RoundTokensReleased',
          data: { ...ids, orderId: 'o1', tokens: 5, reason: 'payment_failed', releasedAt: at },
        },
      ])
      .when(reserve('o3', 'cu-3', 5))
      .then([reserved('o3', 'cu-3', 5)]));
  it('holds the minimum investment per order and the maximum per investor', () => {
    spec
      .given([created, opened])
      .when(reserve('o1', 'cu-1', 1))
      .thenThrows({ status: 400 });
    spec
      .given([created, opened, reserved('o1', 'cu-1', 5)])
      .when(reserve('o2', 'cu-1', 2))
      .thenThrows({ status: 409, fields: { tokens: expect.stringContaining('maximum') } });
  });
  it('sells a reservation once its money arrived, once', () => {
    const sold: FundingRoundEvent = {
      type: 'RoundTokensSold',
      data: { ...ids, orderId: 'o1', tokens: 3, amountCents: 300, soldAt: at },
    };
    spec
      .given([created, opened, reserved('o1', 'cu-1', 3)])
      .when({ type: 'SellTokens', data: { ...acting, orderId: 'o1' } })
      .then([sold]);
    spec
      .given([created, opened, reserved('o1', 'cu-1', 3), sold])
      .when({ type: 'SellTokens', data: { ...acting, orderId: 'o1' } })
      .then([]);
  });
  it('cannot be cancelled while an order awaits payment: cancel it first', () =>
    spec
      .given([created, opened, reserved('o1', 'cu-1', 3)])
      .when({ type: 'CancelRound', data: acting })
      .thenThrows({
        status: 409,
        message: 'An order of this round awaits payment: cancel it first',
      }));
  it('cannot be cancelled once tokens are paid for: close it instead', () =>
    spec
      .given([
        created,
        opened,
        reserved('o1', 'cu-1', 3),
        reserved('o2', 'cu-2', 2),
        {
          type: 'RoundTokensSold',
          data: { ...ids, orderId: 'o1', tokens: 3, amountCents: 300, soldAt: at },
        },
      ])
      .when({ type: 'CancelRound', data: acting })
      .thenThrows({
        status: 409,
        message: 'An order of this round is paid for: close the round instead',
      }));
  it('takes no order once past its close', () =>
    spec
      .given([created, opened])
      .when({
        type: 'ReserveTokens',
        data: {
          ...acting,
          now: new Date(now.getTime() + 2 * day),
          orderId: 'o1',
          customerId: 'c',
          tokens: 3,
        },
      })
      .thenThrows({ status: 409, fields: { roundId: expect.stringContaining('closed') } }));
});
