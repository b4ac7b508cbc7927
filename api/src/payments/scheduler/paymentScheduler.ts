import type { Pool } from 'pg';
import type { PaymentDeps } from '../paymentCommands';
import {
  expirePayment,
  RefundRefusedError,
  sendPaymentToTerminal,
  settleRefund,
} from '../paymentCommands';

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
  /**
   * One pass: resume unsent payments, expire the overdue, settle refunds the processor has not
   * confirmed. Resolves with what it did (payment ids; refund ids for `refunds`).
   */
  runOnce(): Promise<{ resumed: string[]; expired: string[]; refunds: string[] }>;
  /** A pass now, then one every `intervalMs`. */
  start(): void;
  /** Waits for a pass in progress; no pass starts after this. */
  stop(): Promise<void>;
}

/**
 * The payments' timers, on start and every few seconds (from the `payment_timers` read model):
 * - a payment requested but never sent (its process died between the two) is sent now; the
 *   gateway is idempotent by the payment id, so this can never charge twice;
 * - a payment still waiting at its expiry time expires (the decider checks the time again);
 * - a refund whose gateway call failed (the processor was unreachable) is sent again until the
 *   processor confirms or refuses it; the gateway is idempotent by the refund id.
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
    const refunds = await each(
      await unsettledRefunds(deps.pool, new Date(now.getTime() - resumeAfterMs), batchSize),
      ({ paymentId, refundId }) =>
        settleRefund(deps, paymentId, refundId, {}).catch((error: unknown) => {
          // Refused for good: recorded as failed, so settled all the same.
          if (error instanceof RefundRefusedError) return { events: [error] };
          throw error;
        }),
      'settling a refund with the card processor failed',
    );
    return { resumed, expired, refunds };
  }

  async function each<Job extends string | { refundId: string }>(
    jobs: Job[],
    command: (job: Job) => Promise<{ events: readonly unknown[] }>,
    failure: string,
  ): Promise<string[]> {
    const done: string[] = [];
    for (const job of jobs) {
      if (stopped) break;
      const id = typeof job === 'string' ? job : job.refundId;
      try {
        if ((await command(job)).events.length > 0) done.push(id);
      } catch (error) {
        deps.logger.warn({ err: error, id }, failure);
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

async function unsettledRefunds(
  pool: Pool,
  refundedBefore: Date,
  limit: number,
): Promise<{ paymentId: string; refundId: string }[]> {
  const { rows } = await pool.query<{ paymentId: string; refundId: string }>(
    `SELECT payment_id AS "paymentId", refund_id AS "refundId" FROM refund_timers
      WHERE NOT done AND refunded_at <= $1
      ORDER BY refunded_at LIMIT $2`,
    [refundedBefore, limit],
  );
  return rows;
}
