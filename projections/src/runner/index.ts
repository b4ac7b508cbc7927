export { type BatchOutcome, DEFAULT_RETRY_DELAYS_MS } from './applyEvents';
// For other subscribers of the store with a checkpoint of their own (the Kafka publisher).
export { NOTHING_APPLIED, readAfter } from './batches';
export { advanceCheckpoint, readCheckpoints } from './checkpoints';
export type { ProjectionFailure } from './failures';
export { wakeOnNewEvents } from './newEventWakes';
export { CHECKPOINT_CHANNEL, type CheckpointNotice } from './notifier';
export { ReadAhead } from './reader';
export {
  type RebuildOptions,
  type RebuildResult,
  rebuildProjections,
  snapshotTables,
} from './rebuild';
export { ProjectorRunner, type ProjectorRunnerOptions, startProjectors } from './runner';
export { addColumnIfMissing, ensureCheckpointRows, migrateProjections } from './schema';
export {
  type ProjectionStatus,
  type ProjectionStatusOptions,
  type ProjectionsStatus,
  readProjectionStatus,
} from './status';
export { inTransaction } from './transactions';
export {
  ListeningReadModelWaiter,
  type ListeningWaiterOptions,
  type ReadModelWaiter,
} from './waiter';
export { sleep, UnreadableBackoff, WakeSignal } from './wakeSignal';
