export { EventStoreDbEventStore } from './eventstoredb/eventStoreDbEventStore';
export { type EmbeddedPostgresServer, startEmbeddedPostgres } from './postgres/embeddedPostgres';
