import type { EventStore } from '@issuer/events';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { applyDdlOnce } from '../http';
import { periodic } from '../http/periodic';
import { recordWalletEntry, walletEntryOf, walletEventTypes } from './walletCommands';

const checkpointName = 'walletRecorder';
const ddl = `
CREATE TABLE IF NOT EXISTS process_checkpoints (
  name text PRIMARY KEY,
  position bigint NOT NULL
);
INSERT INTO process_checkpoints (name, position) VALUES ('${checkpointName}', -1)
  ON CONFLICT (name) DO NOTHING;
`;

export function migrateWalletRecorder(pool: Pool): Promise<void> {
  return applyDdlOnce(pool, 'issuer-portal:migrate-wallet-recorder', ddl);
}

export interface WalletRecorder {
  /** Records every money movement after the checkpoint; resolves with how many it recorded. */
  runOnce(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

const handled = new Set<string>(walletEventTypes);

/**
 * The process manager that keeps each company's wallet stream in step with its money: every
 * capture, refund, refused refund (credited back), e-transfer deposit and returned payout, read
 * from the global log after its own checkpoint. The checkpoint row is locked for the pass (a
 * second process skips its turn) and moves only after the entries are appended; a crash in
 * between replays them, and the wallet
 * ignores an entry id it holds. The payout debit itself is not here: it is the guard, taken by
 * the payout command before anything else.
 */
export function createWalletRecorder(
  deps: { store: EventStore; pool: Pool; clock: () => Date; logger: Logger },
  { intervalMs = 1_000, batchSize = 500 } = {},
): WalletRecorder {
  async function runOnce(): Promise<number> {
    const client = await deps.pool.connect();
    let recorded = 0;
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ position: string }>(
        'SELECT position::text FROM process_checkpoints WHERE name = $1 FOR UPDATE SKIP LOCKED',
        [checkpointName],
      );
      const row = rows[0];
      if (!row) {
        await client.query('ROLLBACK');
        return 0;
      }
      let after = BigInt(row.position);
      for (;;) {
        const events = await deps.store.readAll({ after, maxCount: batchSize });
        if (events.length === 0) break;
        for (const event of events) {
          const command = handled.has(event.type) ? walletEntryOf(deps, event) : undefined;
          if (!command) continue;
          const outcome = await recordWalletEntry(deps, command, {
            causationId: event.id,
            correlationId: event.metadata.correlationId,
          });
          recorded += outcome.events.length;
        }
        after = events[events.length - 1]?.position ?? after;
        await client.query('UPDATE process_checkpoints SET position = $2 WHERE name = $1', [
          checkpointName,
          String(after),
        ]);
        if (events.length < batchSize) break;
      }
      await client.query('COMMIT');
      return recorded;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  return {
    runOnce,
    ...periodic(runOnce, { intervalMs, logger: deps.logger, label: 'wallet recorder' }),
  };
}
