import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { periodic } from '../http/periodic';
import { type BillingDeps, billDue } from './subscriptionCommands';

export interface BillingSchedulerOptions {
  /** How often it looks. Default 1 s. */
  intervalMs?: number;
  /** Due subscriptions per query. */
  batchSize?: number;
  /** Subscriptions billed at once. */
  concurrency?: number;
  /** Tests only: called after each subscription a pass acted on (a crash test dies here). */
  afterEach?: () => void;
}

export interface BillingScheduler {
  /** One pass: every subscription due now; resolves with the invoices issued and other acts. */
  runOnce(): Promise<{ invoices: number; acted: number }>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * The billing timer, built from events: `billing_due` (kept by the billing projector) says when
 * each subscription next has something to do; a pass runs `BillDue` on every subscription due by
 * the injected clock. Exactly once comes from the write side, not from this loop: the decider
 * issues only the period after the last one on the stream (invoice id = subscription + period
 * index) and the append carries the stream's revision, so a repeat after a restart or a SIGKILL,
 * a stale row, or a second process doing the same at the same moment appends nothing.
 * A row whose position is older than this process's own last append to that subscription is
 * skipped (the projector has not caught up with it yet).
 */
export function createBillingScheduler(
  deps: BillingDeps & { pool: Pool; logger: Logger },
  {
    intervalMs = 1_000,
    batchSize = 1_000,
    concurrency = 8,
    afterEach,
  }: BillingSchedulerOptions = {},
): BillingScheduler {
  const appended = new Map<string, bigint>();

  async function due(now: Date, after: string) {
    const { rows } = await deps.pool.query<{ subscription_id: string; position: string }>(
      `SELECT subscription_id, position::text FROM billing_due
        WHERE due_at <= $1 AND subscription_id > $2
        ORDER BY subscription_id LIMIT $3`,
      [now, after, batchSize],
    );
    return rows;
  }

  async function bill(subscriptionId: string) {
    try {
      const outcome = await billDue(deps, subscriptionId);
      if (outcome.position !== undefined) appended.set(subscriptionId, outcome.position);
      afterEach?.();
      return outcome.events;
    } catch (error) {
      deps.logger.error({ err: error, subscriptionId }, 'billing a subscription failed');
      return [];
    }
  }

  async function runOnce() {
    const now = deps.clock();
    let invoices = 0;
    let acted = 0;
    let after = '';
    for (;;) {
      const rows = await due(now, after);
      const pending = rows.filter(
        (row) => (appended.get(row.subscription_id) ?? -1n) <= BigInt(row.position),
      );
      let next = 0;
      const worker = async () => {
        for (let row = pending[next++]; row; row = pending[next++]) {
          const events = await bill(row.subscription_id);
          if (events.length > 0) acted += 1;
          invoices += events.filter((event) => event.type === 'InvoiceIssued').length;
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      if (rows.length < batchSize) break;
      after = rows[rows.length - 1]?.subscription_id ?? after;
    }
    return { invoices, acted };
  }

  return {
    runOnce,
    ...periodic(runOnce, { intervalMs, logger: deps.logger, label: 'billing scheduler' }),
  };
}
