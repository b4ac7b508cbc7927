import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '@issuer/eventstore/embedded';
import type { TestProject } from 'vitest/node';

/** One embedded PostgreSQL for the whole run; each test file makes its own database on it. */
export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(join(tmpdir(), 'issuer-test-pg-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const server = await startEmbeddedPostgres({ dataDir, port, persistent: false });
  project.provide('embeddedPostgresUrl', server.url);
  return async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    embeddedPostgresUrl: string;
  }
}
