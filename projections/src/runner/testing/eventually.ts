import type { EventStore } from '@issuer/events';

/** Polls until `check` holds; fails after `timeoutMs`. */
export async function eventually(
  check: () => Promise<boolean>,
  timeoutMs = 5_000,
  what = 'condition',
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * The store hides events until every older transaction of their database has ended (its gap-free
 * horizon): wait for it.
 */
export function visible(store: EventStore, position: bigint): Promise<void> {
  return eventually(
    async () => ((await store.headPosition()) ?? -1n) >= position,
    10_000,
    `position ${position} to become visible`,
  );
}
