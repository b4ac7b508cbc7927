import type { AllSubscription, EventStore } from '@issuer/events';
import type { Logger } from 'pino';
import { sleep, type WakeSignal } from './wakeSignal';

export interface NewEventWakesOptions {
  store: EventStore;
  wake: WakeSignal;
  abort: AbortSignal;
  logger: Logger;
  /** Pause before resubscribing after the subscription ended or failed. */
  errorBackoffMs: number;
}

/**
 * Only a wake-up source: wakes `wake` with the position of each newly committed event (the loops
 * read the events themselves, in batches). A store that can tell committed positions without
 * reading the events (`watchCommitted`, PostgreSQL's NOTIFY) is watched; any other is subscribed
 * to from the head. Resumes after a failure; resolves once `abort` fires and `close()` ended
 * the current subscription.
 */
export function wakeOnNewEvents(options: NewEventWakesOptions): {
  running: Promise<void>;
  close(): Promise<void>;
} {
  let subscription: AllSubscription | undefined;
  const { store, wake, abort, logger } = options;
  const running = (async () => {
    while (!abort.aborted) {
      try {
        if (store.watchCommitted) {
          wake.wake();
          for await (const position of store.watchCommitted(abort)) wake.wake(position);
          if (abort.aborted) break;
          logger.warn('store stopped telling commits; watching again after a pause');
          await sleep(options.errorBackoffMs, abort);
          continue;
        }
        const head = await store.headPosition();
        if (abort.aborted) break;
        subscription = store.subscribeToAll({ after: head });
        wake.wake();
        for await (const event of subscription) {
          if (abort.aborted) break;
          wake.wake(event.position);
        }
        if (abort.aborted) break;
        logger.warn('new-event subscription ended; resubscribing after a pause');
      } catch (error) {
        if (abort.aborted) break;
        logger.warn({ err: error }, 'new-event subscription failed; resubscribing after a pause');
      }
      await sleep(options.errorBackoffMs, abort);
    }
  })();
  return { running, close: async () => subscription?.close().catch(() => {}) };
}
