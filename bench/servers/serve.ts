import { setTimeout as delay } from 'node:timers/promises';
import { serve } from '@hono/node-server';

/** Message a bench server sends its parent over IPC once it listens. */
export interface ReadyMessage {
  type: 'ready';
  port: number;
}

export function isReadyMessage(message: unknown): message is ReadyMessage {
  return (
    typeof message === 'object' &&
    message !== null &&
    'type' in message &&
    message.type === 'ready' &&
    'port' in message &&
    typeof message.port === 'number'
  );
}

type Fetch = Parameters<typeof serve>[0]['fetch'];

/**
 * Serves `app` on 127.0.0.1:PORT and tells the parent it is ready. On SIGTERM (or when the parent
 * goes away) it stops accepting, lets requests already inside finish (at most 5 s: autocannon
 * leaves some in flight when its time is up), runs `shutdown`, and exits.
 */
export function serveForBench(
  app: { fetch: Fetch },
  shutdown: () => Promise<void> = async () => {},
): void {
  const port = Number(process.env.PORT);
  if (!Number.isInteger(port) || port <= 0) throw new Error('PORT must be set');
  let inFlight = 0;
  const fetch: Fetch = async (...args) => {
    inFlight += 1;
    try {
      return await app.fetch(...args);
    } finally {
      inFlight -= 1;
    }
  };
  const server = serve({ fetch, port, hostname: '127.0.0.1' }, (info) => {
    const ready: ReadyMessage = { type: 'ready', port: info.port };
    process.send?.(ready);
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    server.close();
    const deadline = Date.now() + 5_000;
    while (inFlight > 0 && Date.now() < deadline) await delay(10);
    if ('closeAllConnections' in server) server.closeAllConnections();
    try {
      await shutdown();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop());
  process.on('disconnect', () => void stop());
}
