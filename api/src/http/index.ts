/**
 * The HTTP foundation every feature route uses. A state-changing route:
 *
 *   export const terminalRoutes: Feature = () =>
 *     new Hono<AppEnv>().post('/companies/terminals', authenticate, idempotent,
 *       jsonBody(z.strictObject({ name: z.string().min(1).max(40), deviceId: z.string() })),
 *       async (c) => {
 *         const { name, deviceId } = c.req.valid('json');
 *         const { state, readModels } = await executeCommand(c, {
 *           streamId: streamName('Company', c.var.caller.companyId),
 *           decider: { initialState: initialCompany, evolve: evolveCompany, decide: decideCompany },
 *           command: { type: 'RegisterPaymentTerminal', data: { terminalId: randomUUID(), name, deviceId } },
 *         });
 *         return c.json({ terminals: state.status === 'registered' ? state.terminals : [], readModels }, 201);
 *       });
 *
 * then one line in `api/src/app.ts`: `export const features = [healthRoutes, terminalRoutes]`.
 */
export { type BuildOptions, buildApp, maxBodyBytes, maxUploadBytes } from './buildApp';
export { clientAddress, parseProxyEntry } from './clientAddress';
export {
  appendEvents,
  asList,
  type CommandOptions,
  type CommandOutcome,
  type DecidedEvent,
  type Decider,
  decideAndAppend,
  eventMetadata,
  executeCommand,
  foldStream,
  loadState,
  type MetadataOptions,
  type ReadModelsState,
  toNewEvents,
  waitForReadModels,
} from './commands';
export { type ErrorBody, errorBody, errorResponse, type FieldMessages } from './errors';
export { formatETag, ifMatchRevision, preconditionFailed, setETag } from './etag';
export { idempotencyKeyTtlMs, idempotent } from './idempotency';
export { applyDdlOnce, migrateHttp } from './migrate';
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
