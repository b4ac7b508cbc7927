import { describe, expect, it } from 'vitest';
import { allowedActions } from './subscriptionApi';
import { retryDaysOf, startInstant } from './subscriptionLogic';

describe('startInstant', () => {
  const now = new Date(2026, 10, 24, 15, 30);
  it('starts now when empty or today', () => {
    expect(startInstant('', now)).toBeNull();
    expect(startInstant('2026-11-24', now)).toBeNull();
  });
  it('starts a later day at its local midnight', () => {
    expect(startInstant('2026-12-01', now)).toBe(new Date(2026, 11, 1).toISOString());
  });
  it('refuses a past day or a day that does not exist', () => {
    expect(startInstant('2026-11-23', now)).toBeUndefined();
    expect(startInstant('2026-02-30', now)).toBeUndefined();
    expect(startInstant('tomorrow', now)).toBeUndefined();
  });
});

describe('allowedActions', () => {
  it('pauses a live subscription, resumes a paused one, cancels neither twice', () => {
    expect(allowedActions({ status: 'active', cancelAt: null })).toEqual({
      pause: true,
      resume: false,
      cancel: true,
      cancelAtPeriodEnd: true,
      changePlan: true,
    });
    expect(allowedActions({ status: 'paused', cancelAt: null }).resume).toBe(true);
    expect(allowedActions({ status: 'paused', cancelAt: null }).pause).toBe(false);
    expect(
      allowedActions({ status: 'active', cancelAt: '2026-12-01T00:00:00Z' }).cancelAtPeriodEnd,
    ).toBe(false);
    expect(allowedActions({ status: 'active', cancelAt: '2026-12-01T00:00:00Z' }).changePlan).toBe(
      false,
    );
    expect(allowedActions({ status: 'cancelled', cancelAt: null })).toEqual({
      pause: false,
      resume: false,
      cancel: false,
      cancelAtPeriodEnd: false,
      changePlan: false,
    });
  });
});

describe('retryDaysOf', () => {
  it('reads days separated by commas or spaces, in order, or undefined', () => {
    expect(retryDaysOf('1, 3, 5')).toEqual([1, 3, 5]);
    expect(retryDaysOf(' 2 7 ')).toEqual([2, 7]);
    expect(retryDaysOf('')).toEqual([]);
    expect(retryDaysOf('3, 1')).toBeUndefined();
    expect(retryDaysOf('1, 1')).toBeUndefined();
    expect(retryDaysOf('0')).toBeUndefined();
    expect(retryDaysOf('61')).toBeUndefined();
    expect(retryDaysOf('1.5')).toBeUndefined();
    expect(retryDaysOf('a')).toBeUndefined();
    expect(retryDaysOf('1,2,3,4,5,6,7,8,9')).toBeUndefined();
  });
});
