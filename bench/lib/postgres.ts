import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '@issuer/eventstore/embedded';
import pg from 'pg';
import { onCleanup } from './cleanup';
import { postmasterPid } from './cpu';
import { freePort } from './net';

/** One embedded PostgreSQL 18 for the whole bench run, in a temp folder removed at the end. */
export interface BenchPostgres {
  adminUrl: string;
  /** The postmaster: its process tree is every backend and helper of this server. */
  postmasterPid: number;
  /** A new empty database on the server; returns its URL. */
  createDatabase(prefix: string): Promise<string>;
}

let shared: Promise<BenchPostgres> | undefined;
let synchronousCommit = true;

/**
 * `false` sets synchronous_commit = off on the bench's own server: commits stop waiting for the
 * WAL flush, which shows the CPU-bound figures on a machine whose disk flush is slow.
 */
export function configureBenchPostgres(options: { synchronousCommit: boolean }): void {
  synchronousCommit = options.synchronousCommit;
}

export function benchPostgres(): Promise<BenchPostgres> {
  shared ??= start();
  return shared;
}

async function start(): Promise<BenchPostgres> {
  const dataDir = await mkdtemp(join(tmpdir(), 'issuer-bench-pg-'));
  onCleanup('bench PostgreSQL folder', () => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const startedAt = Date.now();
  const server = await startEmbeddedPostgres({ dataDir, port, persistent: false });
  onCleanup('bench PostgreSQL', () => server.stop());
  if (!synchronousCommit) {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    try {
      await admin.query('ALTER SYSTEM SET synchronous_commit = off');
      await admin.query('SELECT pg_reload_conf()');
    } finally {
      await admin.end();
    }
  }
  console.error(
    `embedded PostgreSQL up on 127.0.0.1:${port} in ${Date.now() - startedAt} ms (synchronous_commit ${synchronousCommit ? 'on' : 'off'})`,
  );
  return {
    adminUrl: server.url,
    postmasterPid: postmasterPid(dataDir),
    async createDatabase(prefix) {
      const name = `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      const url = new URL(server.url);
      url.pathname = `/${name}`;
      return url.toString();
    },
  };
}

/** Runs `work` with a pool and always ends the pool. */
export async function withPool<T>(
  connectionString: string,
  max: number,
  work: (pool: pg.Pool) => Promise<T>,
): Promise<T> {
  const pool = new pg.Pool({ connectionString, max });
  // An idle connection dropped by the server must not take the whole bench down.
  pool.on('error', (error) => console.error('idle bench connection failed:', error.message));
  try {
    return await work(pool);
  } finally {
    await pool.end();
  }
}
