import type { Pool } from 'pg';
import type { PaymentDeps } from '../paymentCommands';
import { expirePayment, sendPaymentToTerminal } from '../paymentCommands';

export interface PaymentSchedulerOptions {
  /** How often it looks. Default 2 s. */
  intervalMs?: number;
  /**
   * A payment requested this recently is left to the request that is sending it right now.
   * Default 5 s (by the injected clock).
   */
  resumeAfterMs?: number;
  batchSize?: number;
}

export interface PaymentScheduler {
  /** One pass: resume unsent payments, expire the overdue. Resolves with what it did. */
  runOnce(): Promise<{ resumed: string[]; expired: string[] }>;
  /** A pass now, then one every `intervalMs`. */
  start(): void;
  /** Waits for a pass in progress; no pass starts after this. */
  stop(): Promise<void>;
}

/**
 * The payments' timers, on start and every few seconds (from the `payment_timers` read model):
 * - a payment requested but never sent (its process died between the two) is sent now; the
 *   gateway is idempotent by the payment id, so this can never charge twice;
 * - a payment still waiting at its expiry time expires (the decider checks the time again).
 * Each command is safe to repeat and guarded by the stream's revision, so two API processes
 * running this at once do no harm.
 */
export function startPaymentScheduler(
  deps: PaymentDeps & { pool: Pool },
  options: PaymentSchedulerOptions = {},
): PaymentScheduler {
  const scheduler = createPaymentScheduler(deps, options);
  scheduler.start();
  return scheduler;
}

export function createPaymentScheduler(
  deps: PaymentDeps & { pool: Pool },
  options: PaymentSchedulerOptions = {},
): PaymentScheduler {
  const { intervalMs = 2_000, resumeAfterMs = 5_000, batchSize = 100 } = options;
  let running: Promise<unknown> | undefined;
  let stopped = false;

  async function runOnce() {
    const now = deps.clock();
    const resumed = await each(
      await unsent(deps.pool, new Date(now.getTime() - resumeAfterMs), batchSize),
      (paymentId) => sendPaymentToTerminal(deps, paymentId),
      'resuming a payment never sent to its terminal failed',
    );
    const expired = await each(
      await overdue(deps.pool, now, batchSize),
      (paymentId) => expirePayment(deps, paymentId),
      'expiring a payment failed',
    );
    return { resumed, expired };
  }

  async function each(
    paymentIds: string[],
    command: (paymentId: string) => Promise<{ events: readonly unknown[] }>,
    failure: string,
  ): Promise<string[]> {
    const done: string[] = [];
    for (const paymentId of paymentIds) {
      if (stopped) break;
      try {
        if ((await command(paymentId)).events.length > 0) done.push(paymentId);
      } catch (error) {
        deps.logger.warn({ err: error, paymentId }, failure);
      }
    }
    return done;
  }

  const tick = () => {
    if (running || stopped) return;
    running = runOnce()
      .catch((error: unknown) => deps.logger.error({ err: error }, 'payment scheduler failed'))
      .finally(() => {
        running = undefined;
      });
  };
  let timer: NodeJS.Timeout | undefined;

  return {
    runOnce,
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

async function unsent(pool: Pool, requestedBefore: Date, limit: number): Promise<string[]> {
  const { rows } = await pool.query<{ payment_id: string }>(
    `SELECT payment_id FROM payment_timers
      WHERE NOT sent AND NOT done AND requested_at <= $1
      ORDER BY requested_at LIMIT $2`,
    [requestedBefore, limit],
  );
  return rows.map((row) => row.payment_id);
}

async function overdue(pool: Pool, now: Date, limit: number): Promise<string[]> {
  const { rows } = await pool.query<{ payment_id: string }>(
    `SELECT payment_id FROM payment_timers
      WHERE NOT done AND expires_at <= $1
      ORDER BY expires_at LIMIT $2`,
    [now, limit],
  );
  return rows.map((row) => row.payment_id);
}
