import { periodic } from '../http/periodic';
import { type EtransferDeps, expireEtransfer, sendToProvider } from './etransferCommands';

export interface EtransferScheduler {
  /** One pass: resend what never reached the provider, expire overdue requests. */
  runOnce(): Promise<{ resent: string[]; expired: string[] }>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * The money requests' timer: every `intervalMs`, a request still waiting for the customer at its
 * expiry time (found in the e-transfers read model) expires; the decider checks the time again on
 * the stream, so a stale read, or two processes at once, do no harm. The provider is not told: its
 * own copy expires at the same time (the simulator refuses a deposit past it). A request or payout
 * still `requested` after `resendAfterMs` (its provider call failed, or its process died) is handed
 * to the provider again, which is idempotent by the e-transfer id.
 */
export function createEtransferScheduler(
  deps: EtransferDeps,
  { intervalMs = 5_000, batchSize = 100, resendAfterMs = 30_000 } = {},
): EtransferScheduler {
  async function each(sql: string, params: unknown[], act: (id: string) => Promise<boolean>) {
    const { rows } = await deps.pool.query<{ etransfer_id: string }>(sql, [...params, batchSize]);
    const done: string[] = [];
    for (const { etransfer_id: id } of rows) {
      try {
        if (await act(id)) done.push(id);
      } catch (error) {
        deps.logger.error({ err: error, etransferId: id }, 'e-transfer timer: a command failed');
      }
    }
    return done;
  }

  async function runOnce() {
    const now = deps.clock();
    const resent = await each(
      `SELECT etransfer_id FROM etransfers
        WHERE kind IN ('request', 'payout') AND status = 'requested' AND created_at <= $1
        ORDER BY created_at LIMIT $2`,
      [new Date(now.getTime() - resendAfterMs)],
      async (id) => {
        await sendToProvider(deps, id);
        return true;
      },
    );
    const expired = await each(
      `SELECT etransfer_id FROM etransfers
        WHERE kind = 'request' AND status IN ('requested', 'sent') AND expires_at <= $1
        ORDER BY expires_at LIMIT $2`,
      [now],
      async (id) => (await expireEtransfer(deps, id)).events.length > 0,
    );
    return { resent, expired };
  }

  return {
    runOnce,
    ...periodic(runOnce, { intervalMs, logger: deps.logger, label: 'e-transfer scheduler' }),
  };
}
