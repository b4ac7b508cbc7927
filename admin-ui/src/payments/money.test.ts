import { describe, expect, it } from 'vitest';
import { centsToTyped, parseCents } from './money';

describe('parseCents', () => {
  it.each([
    ['12', 1200],
    ['12.5', 1250],
    ['12.50', 1250],
    ['0.29', 29],
    ['0.01', 1],
    ['12,50', 1250],
    [' $ 7.05 ', 705],
    ['7.05 CAD', 705],
    ['999999.99', 99_999_999],
    ['1,234.56', 123_456],
    ['١٢٫٥٠', 1250],
    ['007', 700],
  ])('reads %j as %i cents in English', (typed, cents) => {
    expect(parseCents(typed, 'en')).toBe(cents);
  });

  it('reads Turkish thousands groups and decimal comma', () => {
    expect(parseCents('1.234,56', 'tr')).toBe(123_456);
    expect(parseCents('12,5', 'tr')).toBe(1250);
    expect(parseCents('1,234.56', 'tr')).toBeNull();
  });

  it.each(['', 'abc', '-5', '1.234', '12.345', '1e3', '12..5', '1,23,456', '99999999999999999999'])(
    'refuses %j in English',
    (typed) => {
      expect(parseCents(typed, 'en')).toBeNull();
    },
  );
});

describe('centsToTyped', () => {
  it('writes cents as dollars with two decimals', () => {
    expect(centsToTyped(1250)).toBe('12.50');
    expect(centsToTyped(7)).toBe('0.07');
    expect(centsToTyped(99_999_999)).toBe('999999.99');
  });
});
