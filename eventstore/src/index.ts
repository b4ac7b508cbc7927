export { type EmbeddedPostgresServer, startEmbeddedPostgres } from './postgres/embeddedPostgres';
