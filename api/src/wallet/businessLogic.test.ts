import type { WalletEntrySource, WalletEvent } from '@issuer/events';
import { describe, expect, it } from 'vitest';
import { deciderSpecification } from '../auth/testing/deciderSpecification';
import { type WalletCommand, walletDecider } from './businessLogic';

const { given } = deciderSpecification(walletDecider);

const companyId = 'c-1';
const now = new Date('2025-03-01T10:00:00.000Z');
const recordedAt = now.toISOString();

const entry = (entryId: string, source: WalletEntrySource, amountCents: number) => ({
  companyId,
  entryId,
  source,
  amountCents,
  recordedAt,
});
const credited = (entryId: string, amountCents: number): WalletEvent => ({
  type: 'WalletCredited',
  data: entry(entryId, 'payment', amountCents),
});
const debited = (
  entryId: string,
  amountCents: number,
  source: WalletEntrySource = 'payout',
): WalletEvent => ({ type: 'WalletDebited', data: entry(entryId, source, amountCents) });

const credit = (entryId: string, amountCents: number): WalletCommand => ({
  type: 'CreditWallet',
  data: { companyId, entryId, source: 'payment', amountCents, now },
});
const debit = (
  entryId: string,
  amountCents: number,
  guarded = true,
  source: WalletEntrySource = 'payout',
): WalletCommand => ({
  type: 'DebitWallet',
  data: { companyId, entryId, source, amountCents, now, guarded },
});

describe('the company wallet', () => {
  it('credits once per entry id', () => {
    given([])
      .when(credit('pay_1', 2500))
      .then([credited('pay_1', 2500)]);
    given([credited('pay_1', 2500)])
      .when(credit('pay_1', 2500))
      .then([]);
  });

  it('debits a payout up to the balance exactly', () => {
    given([credited('pay_1', 2500)])
      .when(debit('et_1', 2500))
      .then([debited('et_1', 2500)]);
    given([credited('pay_1', 2500), debited('et_1', 1000)])
      .when(debit('et_2', 1500))
      .then([debited('et_2', 1500)]);
  });

  it('refuses a payout over the balance with 409 naming amountCents', () => {
    given([credited('pay_1', 2500), debited('et_1', 1000)])
      .when(debit('et_2', 1501))
      .thenThrows({ status: 409, fields: { amountCents: expect.stringContaining('1500 cents') } });
    given([]).when(debit('et_1', 1)).thenThrows({ status: 409 });
  });

  it('records an unguarded debit (a refund) even past zero', () => {
    given([credited('pay_1', 2500), debited('et_1', 2500)])
      .when(debit('rf_1', 1000, false, 'refund'))
      .then([debited('rf_1', 1000, 'refund')]);
  });

  it('a repeated debit changes nothing, even when it would now be refused', () => {
    given([credited('pay_1', 2500), debited('et_1', 2500)])
      .when(debit('et_1', 2500))
      .then([]);
  });

  it('folds to the balance', () => {
    const state = [credited('a', 100), credited('b', 50), debited('c', 30)].reduce(
      walletDecider.evolve,
      walletDecider.initialState(),
    );
    expect(state.balanceCents).toBe(120);
    expect([...state.entryIds]).toEqual(['a', 'b', 'c']);
  });
});
