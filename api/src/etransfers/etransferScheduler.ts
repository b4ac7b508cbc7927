import { periodic } from '../http/periodic';
import { type EtransferDeps, expireEtransfer } from './etransferCommands';

export interface EtransferScheduler {
  /** One pass: expire the money requests past their expiry. Resolves with the ids it expired. */
  runOnce(): Promise<string[]>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * The money requests' timer: every `intervalMs`, a request still waiting for the customer at its
 * expiry time (found in the e-transfers read model) expires; the decider checks the time again on
 * the stream, so a stale read, or two processes at once, do no harm. The provider is not told: its
 * own copy expires at the same time (the simulator refuses a deposit past it).
 */
export function createEtransferScheduler(
  deps: EtransferDeps,
  { intervalMs = 5_000, batchSize = 100 } = {},
): EtransferScheduler {
  async function runOnce(): Promise<string[]> {
    const { rows } = await deps.pool.query<{ etransfer_id: string }>(
      `SELECT etransfer_id FROM etransfers
        WHERE kind = 'request' AND status IN ('requested', 'sent') AND expires_at <= $1
        ORDER BY expires_at LIMIT $2`,
      [deps.clock(), batchSize],
    );
    const expired: string[] = [];
    for (const { etransfer_id: id } of rows) {
      try {
        if ((await expireEtransfer(deps, id)).events.length > 0) expired.push(id);
      } catch (error) {
        deps.logger.error({ err: error, etransferId: id }, 'expiring a money request failed');
      }
    }
    return expired;
  }

  return {
    runOnce,
    ...periodic(runOnce, { intervalMs, logger: deps.logger, label: 'e-transfer scheduler' }),
  };
}
