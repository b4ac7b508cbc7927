import { createServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

/** A port that was free on 127.0.0.1 a moment ago (the kernel picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no port assigned'))));
    });
  });
}

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
