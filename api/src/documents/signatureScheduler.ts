import type { AppDependencies } from '../http';
import { periodic } from '../http/periodic';
import { expireSignatureRequest } from './documentCommands';

export interface SignatureScheduler {
  /** One pass: expire the open requests whose link is past its time. */
  runOnce(): Promise<{ expired: string[] }>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * The signing links' timer: every `intervalMs`, an open request past its expiry (found in the
 * documents read model) expires; the decider checks the time again on the stream, so a stale read
 * or two processes at once do no harm. Time comes from the injected clock.
 */
export function createSignatureScheduler(
  deps: Pick<AppDependencies, 'store' | 'clock' | 'pool' | 'logger'>,
  { intervalMs = 5_000, batchSize = 100 } = {},
): SignatureScheduler {
  async function runOnce() {
    const { rows } = await deps.pool.query<{ request_id: string }>(
      `SELECT request_id FROM signature_requests
        WHERE status IN ('sent', 'viewed') AND expires_at <= $1
        ORDER BY expires_at LIMIT $2`,
      [deps.clock(), batchSize],
    );
    const expired: string[] = [];
    for (const { request_id: id } of rows) {
      try {
        if ((await expireSignatureRequest(deps, id)).events.length > 0) expired.push(id);
      } catch (error) {
        deps.logger.error({ err: error, requestId: id }, 'signature timer: a command failed');
      }
    }
    return { expired };
  }
  return {
    runOnce,
    ...periodic(runOnce, { intervalMs, logger: deps.logger, label: 'signature scheduler' }),
  };
}
