import { setTimeout as delay } from 'node:timers/promises';

export { freePort } from '@issuer/test-support/ports';

/**
 * Polls `url` until it answers 200, every `intervalMs`, for at most `timeoutMs`. Resolves with the
 * time it took; rejects when the bound is hit or `stillAlive` says the server died.
 */
export async function waitFor200(
  url: string,
  { timeoutMs, intervalMs = 10, stillAlive = () => true }: WaitOptions,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!stillAlive()) throw new Error(`server exited before ${url} answered`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await delay(intervalMs);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}

interface WaitOptions {
  timeoutMs: number;
  intervalMs?: number;
  stillAlive?: () => boolean;
}
