import { describe, expect, it } from 'vitest';
import { CheckpointTracker } from './checkpointTracker';

describe('a tracker of two projections', () => {
  it('resolves a wait only once every projection has passed the position', async () => {
    const tracker = new CheckpointTracker(['a', 'b']);
    const wait = tracker.waitFor(10n, 5_000);
    tracker.advance('a', 12n);
    expect(tracker.isCaughtUp(10n)).toBe(false);
    tracker.advance('b', 10n);
    await expect(wait).resolves.toBe(true);
  });

  it('answers false when the bound passes first', async () => {
    const tracker = new CheckpointTracker(['a']);
    tracker.advance('a', 3n);
    await expect(tracker.waitFor(4n, 20)).resolves.toBe(false);
  });

  it('never moves a checkpoint back on a late notice', () => {
    const tracker = new CheckpointTracker(['a']);
    tracker.advance('a', 7n);
    tracker.advance('a', 5n);
    expect(tracker.lowestCheckpoint()).toBe(7n);
  });

  it('ignores notices about projections it does not wait for', () => {
    const tracker = new CheckpointTracker(['a']);
    tracker.advance('a', 1n);
    tracker.advance('stale', 0n);
    expect(tracker.isCaughtUp(1n)).toBe(true);
  });
});

describe('a tracker without projections', () => {
  it('is always caught up', async () => {
    await expect(new CheckpointTracker([]).waitFor(99n, 10)).resolves.toBe(true);
  });
});
