import { describe, expect, it } from 'vitest';
import { fundingTicks, rangeBounds } from './dashboardApi';

describe('the funding chart', () => {
  it('ticks every 20,000 up to the first step at or above the largest value', () => {
    expect(fundingTicks(0)).toEqual([0, 20_000]);
    expect(fundingTicks(40_000)).toEqual([0, 20_000, 40_000]);
    expect(fundingTicks(45_000)).toEqual([0, 20_000, 40_000, 60_000]);
  });

  it('reads TW and LW as Monday-to-Monday weeks and 2W as the last fourteen days', () => {
    const wednesday = new Date('2026-11-25T15:00:00Z');
    const at = (iso: string) => Date.parse(iso);
    expect(rangeBounds('tw', wednesday)).toEqual({
      from: at('2026-11-23T00:00:00Z'),
      to: at('2026-11-30T00:00:00Z'),
    });
    expect(rangeBounds('lw', wednesday)).toEqual({
      from: at('2026-11-16T00:00:00Z'),
      to: at('2026-11-23T00:00:00Z'),
    });
    expect(rangeBounds('2w', wednesday)).toEqual({
      from: at('2026-11-12T00:00:00Z'),
      to: at('2026-11-26T00:00:00Z'),
    });
    const sunday = new Date('2026-11-29T23:00:00Z');
    expect(rangeBounds('tw', sunday).from).toBe(at('2026-11-23T00:00:00Z'));
  });
});
