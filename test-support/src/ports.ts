import { createServer } from 'node:net';

/**
 * A port that was free on 127.0.0.1 a moment ago, picked by the kernel. A port picked at random
 * can be the local end of one of the run's own connections (Linux hands those out from 32768 up),
 * and a server then fails to bind it.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port > 0 ? resolve(port) : reject(new Error('no port assigned'))));
    });
  });
}
