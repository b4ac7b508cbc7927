import { describe, expect, it } from 'vitest';
import { WakeSignal } from './wakeSignal';

describe('a wake signal', () => {
  it('does not lose a wake that came between a read and the wait', async () => {
    const signal = new WakeSignal();
    const seen = signal.generation;
    signal.wake();
    const started = performance.now();
    await signal.waitForWake(seen, 5_000);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('resumes a sleeping loop on wake, and after the timeout otherwise', async () => {
    const signal = new WakeSignal();
    const woken = signal.waitForWake(signal.generation, 5_000);
    signal.wake();
    await woken;
    const started = performance.now();
    await signal.waitForWake(signal.generation, 30);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('tells a loop already past the woken position that there is nothing new to read', () => {
    const signal = new WakeSignal();
    const seen = signal.generation;
    signal.wake(10n);
    expect(signal.hasNewsFor(seen, 10n)).toBe(false);
    expect(signal.hasNewsFor(seen, 9n)).toBe(true);
  });

  it('sends every loop reading after a wake that names no position', () => {
    const signal = new WakeSignal();
    signal.wake(10n);
    const seen = signal.generation;
    signal.wake();
    expect(signal.hasNewsFor(seen, 10n)).toBe(true);
    expect(signal.hasNewsFor(signal.generation, 10n)).toBe(false);
  });
});
