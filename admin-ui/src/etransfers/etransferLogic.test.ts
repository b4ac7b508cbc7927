import { describe, expect, it } from 'vitest';
import {
  canSimulateAnswer,
  dayAfter,
  expiryInstant,
  isEtransferView,
  isOpenRequest,
  isUnmatched,
  onFormInputs,
  signedCents,
} from './etransferLogic';

describe('the e-transfer views', () => {
  it('are the five the API filters by', () => {
    expect(['all', 'requested', 'deposited', 'sent', 'unmatched'].every(isEtransferView)).toBe(
      true,
    );
    expect(isEtransferView('payouts')).toBe(false);
    expect(isEtransferView(undefined)).toBe(false);
    expect(isEtransferView('constructor')).toBe(false);
  });
});

describe('what an e-transfer offers', () => {
  it('cancels only an unanswered request; the sandbox answers only a delivered one', () => {
    expect(isOpenRequest({ kind: 'request', status: 'sent' })).toBe(true);
    expect(isOpenRequest({ kind: 'request', status: 'requested' })).toBe(true);
    expect(isOpenRequest({ kind: 'request', status: 'deposited' })).toBe(false);
    expect(isOpenRequest({ kind: 'payout', status: 'sent' })).toBe(false);
    expect(canSimulateAnswer({ kind: 'request', status: 'sent' })).toBe(true);
    expect(canSimulateAnswer({ kind: 'request', status: 'requested' })).toBe(false);
    expect(canSimulateAnswer({ kind: 'incoming', status: 'sent' })).toBe(false);
  });

  it('matches only an incoming one without a customer', () => {
    expect(isUnmatched({ kind: 'incoming', customerId: null })).toBe(true);
    expect(isUnmatched({ kind: 'incoming', customerId: 'c1' })).toBe(false);
    expect(isUnmatched({ kind: 'request', customerId: null })).toBe(false);
  });

  it('counts a payout against the balance', () => {
    expect(signedCents({ kind: 'payout', amountCents: 1200 })).toBe(-1200);
    expect(signedCents({ kind: 'incoming', amountCents: 1200 })).toBe(1200);
  });
});

describe('a request’s expiry', () => {
  const now = new Date(2026, 10, 24, 16, 0, 0);

  it('defaults to the day 30 days ahead, across a month end', () => {
    expect(dayAfter(now, 30)).toBe('2026-12-24');
    expect(dayAfter(new Date(2026, 0, 31), 30)).toBe('2026-03-02');
  });

  it('is the end of the picked day in the reader’s time zone', () => {
    expect(expiryInstant('2026-12-24', now)).toBe(new Date(2026, 11, 24, 23, 59, 59).toISOString());
    // Today still counts: it ends tonight.
    expect(expiryInstant('2026-11-24', now)).toBe(new Date(2026, 10, 24, 23, 59, 59).toISOString());
  });

  it('refuses a past day, one beyond 45 days, and what is no day', () => {
    expect(expiryInstant('2026-11-23', now)).toBeNull();
    expect(expiryInstant(dayAfter(now, 45), now)).toBeNull();
    expect(expiryInstant(dayAfter(now, 44), now)).not.toBeNull();
    expect(expiryInstant('2026-02-30', now)).toBeNull();
    expect(expiryInstant('soon', now)).toBeNull();
    expect(expiryInstant('', now)).toBeNull();
  });
});

describe('the API’s field messages on a form', () => {
  it('go under the inputs the forms have, leaving no name behind that no input has', () => {
    expect(
      onFormInputs({ amountCents: 'Too much', expiresAt: 'Too far', customerId: 'Unknown' }),
    ).toEqual({ amount: 'Too much', expiresOn: 'Too far', customerId: 'Unknown' });
  });
});
