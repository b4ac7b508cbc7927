export { EventStoreDbEventStore } from './eventstoredb/eventStoreDbEventStore';
export {
  type EmbeddedPostgresServer,
  runningPostmaster,
  startEmbeddedPostgres,
} from './postgres/embeddedPostgres';
export {
  DuplicateEventIdError,
  PostgresEventStore,
  type PostgresEventStoreOptions,
} from './postgres/postgresEventStore';
export { ORDINAL_BITS, VISIBLE_HORIZON } from './postgres/postgresSchema';
