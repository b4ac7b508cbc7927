export interface PostgresServer {
  /** "embedded" (always) or "server" (when TEST_DATABASE_URL is set). */
  name: string;
  adminUrl: string;
}
/** The PostgreSQL servers the PostgreSQL suites run against in this test run. */
export declare function postgresServers(): PostgresServer[];
/** Creates an empty database with a unique name on the server and returns its URL. */
export declare function createDatabase(server?: PostgresServer): Promise<string>;
