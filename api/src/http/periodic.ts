import type { Logger } from 'pino';

export interface Periodic {
  /** A pass now, then one every `intervalMs` (never two at once). */
  start(): void;
  /** Waits for a pass in progress; no pass starts after this. */
  stop(): Promise<void>;
}

/** Runs `pass` on a timer for background workers; a failed pass is logged and the next one runs. */
export function periodic(
  pass: () => Promise<unknown>,
  { intervalMs, logger, label }: { intervalMs: number; logger: Logger; label: string },
): Periodic {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;
  function tick() {
    if (stopped || running) return;
    running = pass()
      .catch((error) => logger.error({ err: error }, `${label}: a pass failed`))
      .finally(() => {
        running = undefined;
      });
  }
  return {
    start() {
      stopped = false;
      timer = setInterval(tick, intervalMs);
      timer.unref();
      tick();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
