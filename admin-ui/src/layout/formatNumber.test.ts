import { describe, expect, it } from 'vitest';
import { formatNumber, formatPercent } from './formatNumber';

describe('formatNumber', () => {
  it('groups digits as the language does', () => {
    expect(formatNumber(1_500_000, 'en')).toBe('1,500,000');
    expect(formatNumber(1_500_000, 'tr')).toBe('1.500.000');
    expect(formatNumber(0.25, 'tr')).toBe('0,25');
  });
});

describe('formatPercent', () => {
  it('writes the sign where the language puts it, with at most two decimals', () => {
    expect(formatPercent(81.063554, 'en')).toBe('81.06%');
    expect(formatPercent(81.063554, 'tr')).toBe('%81,06');
    expect(formatPercent(5.4, 'tr')).toBe('%5,4');
    expect(formatPercent(100, 'en')).toBe('100%');
  });

  it('never puts a breakable space between the number and its sign', () => {
    for (const locale of ['en', 'tr', 'ar']) {
      expect(formatPercent(12.5, locale)).not.toMatch(/\s/u);
    }
  });
});
