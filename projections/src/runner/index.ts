export { type BatchOutcome, DEFAULT_RETRY_DELAYS_MS } from './applyEvents';
export { NOTHING_APPLIED } from './batches';
export type { ProjectionFailure } from './failures';
export { CHECKPOINT_CHANNEL, type CheckpointNotice } from './notifier';
export {
  type RebuildOptions,
  type RebuildResult,
  rebuildProjections,
  snapshotTables,
} from './rebuild';
export { ProjectorRunner, type ProjectorRunnerOptions, startProjectors } from './runner';
export { migrateProjections } from './schema';
export {
  type ProjectionStatus,
  type ProjectionStatusOptions,
  type ProjectionsStatus,
  readProjectionStatus,
} from './status';
export {
  ListeningReadModelWaiter,
  type ListeningWaiterOptions,
  type ReadModelWaiter,
} from './waiter';
