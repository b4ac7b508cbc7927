import type { EventStore } from '@issuer/events';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { applyDdlOnce } from '../http';
import { checkpointedPass } from '../http/checkpointedPass';
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
 * from the global log after its own checkpoint. The checkpoint row is locked for each batch (a
 * second process skips its turn) and moves only after the entries are appended; a crash in
 * between replays them, and the wallet
 * ignores an entry id it holds. The payout debit itself is not here: it is the guard, taken by
 * the payout command before anything else.
 */
type RecorderDeps = { store: EventStore; pool: Pool; clock: () => Date; logger: Logger };

export function createWalletRecorder(
  deps: RecorderDeps,
  { intervalMs = 1_000, batchSize = 500 } = {},
): WalletRecorder {
  const runOnce = () => recordWalletMovements(deps, { batchSize });
  return {
    runOnce,
    ...periodic(runOnce, { intervalMs, logger: deps.logger, label: 'wallet recorder' }),
  };
}

/**
 * Records the money movements after the checkpoint. `waitForTurn` waits for a pass running
 * elsewhere, so that when it resolves every movement logged before the call is in the wallet.
 */
export function recordWalletMovements(
  deps: Omit<RecorderDeps, 'logger'>,
  { batchSize = 500, waitForTurn = false } = {},
): Promise<number> {
  return checkpointedPass(
    deps,
    checkpointName,
    batchSize,
    async (events) => {
      let recorded = 0;
      for (const event of events) {
        const command = handled.has(event.type) ? walletEntryOf(deps, event) : undefined;
        if (!command) continue;
        const outcome = await recordWalletEntry(deps, command, {
          causationId: event.id,
          correlationId: event.metadata.correlationId,
        });
        recorded += outcome.events.length;
      }
      return recorded;
    },
    { waitForTurn },
  );
}
