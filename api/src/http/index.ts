export { buildApp, maxBodyBytes } from './buildApp';
export {
  appendEvents,
  type CommandOptions,
  type CommandOutcome,
  type DecidedEvent,
  type Decider,
  decideAndAppend,
  eventMetadata,
  executeCommand,
  loadState,
  type MetadataOptions,
  type ReadModelsState,
  waitForReadModels,
} from './commands';
export { type ErrorBody, errorBody, errorResponse, type FieldMessages } from './errors';
export { formatETag, ifMatchRevision, preconditionFailed, setETag } from './etag';
export { idempotencyKeyTtlMs, idempotent } from './idempotency';
export { migrateHttp } from './migrate';
export type {
  ApiConfig,
  AppDependencies,
  AppEnv,
  Caller,
  Feature,
  ProjectionHealth,
  ProjectionsHealth,
  ReadModelWaiter,
} from './types';
export {
  describeIssues,
  jsonBody,
  jsonEncoded,
  pathParams,
  queryParams,
  validationError,
} from './validation';
