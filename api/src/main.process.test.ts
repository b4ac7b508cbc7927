import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { runningPostmaster } from '@issuer/eventstore/embedded';
import { freePort } from '@issuer/test-support';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * `npm start` as a user runs it: api/src/main.ts in its own process on the embedded default
 * (its own DATA_DIR and ports), stopped with the signals systemd, Docker and Ctrl-C send.
 */
const repoRoot = resolve(import.meta.dirname, '../..');
const execFileAsync = promisify(execFile);
const operator = { email: 'ops@platform.test', password: 'aurora-Lynx-2025' };

interface Server {
  child: ChildProcess;
  port: number;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

interface Site {
  dataDir: string;
  env: Record<string, string>;
  port: number;
  postgresPort: number;
}

const started: ChildProcess[] = [];
const sites: Site[] = [];

afterEach(async () => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
  for (const site of sites.splice(0)) {
    const postmaster = await runningPostmaster(clusterDir(site));
    if (postmaster) process.kill(postmaster.pid, 'SIGINT');
    while (postmaster && (await runningPostmaster(clusterDir(site)))) await delay(50);
    await rm(site.dataDir, { recursive: true, force: true });
  }
});

async function newSite(extraEnv: Record<string, string> = {}): Promise<Site> {
  const dataDir = await mkdtemp(join(tmpdir(), 'issuer-main-'));
  await chmod(dataDir, 0o755);
  const [port, postgresPort] = [await freePort(), await freePort()];
  const env: Record<string, string> = {
    PORT: String(port),
    EMBEDDED_POSTGRES_PORT: String(postgresPort),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ...extraEnv,
  };
  const site = { dataDir, env, port, postgresPort };
  sites.push(site);
  return site;
}

const clusterDir = (site: Site) => join(site.dataDir, 'postgres');

function inheritedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'EVENTSTORE_URL', 'KAFKA_BROKERS', 'PROJECTORS'])
    delete env[name];
  delete env.OPERATOR_EMAIL;
  delete env.OPERATOR_PASSWORD;
  return env;
}

function start(site: Site, command: 'main.ts' | 'npm start' = 'main.ts'): Server {
  const [program, args] =
    command === 'main.ts'
      ? [process.execPath, ['--import', 'tsx', 'api/src/main.ts']]
      : ['npm', ['start', '--ignore-scripts', '--silent']];
  const child = spawn(program, args, {
    cwd: repoRoot,
    env: { ...inheritedEnv(), ...site.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }));
  return { child, port: site.port, output: () => output, exited };
}

/** Resolves the moment the port accepts a connection, polling tightly (as a readiness probe would). */
async function portAccepts(server: Server, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`exited early:\n${server.output()}`);
    if (await accepts(server.port)) return;
    await delay(2);
  }
  throw new Error(`port ${server.port} never accepted:\n${server.output()}`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

async function printed(server: Server, text: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!server.output().includes(text)) {
    if (Date.now() > deadline) throw new Error(`never printed ${text}:\n${server.output()}`);
    await delay(20);
  }
}

/** Two GETs on one keep-alive connection, `idleMs` apart: the second's status and whether it reused it. */
async function secondRequestAfterIdle(port: number, idleMs: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise<{ status: number; reusedSocket: boolean }>((done, fail) => {
      const req = request({ port, host: '127.0.0.1', path: '/api/health', agent }, (res) => {
        res.resume();
        res.on('end', () => done({ status: res.statusCode ?? 0, reusedSocket: req.reusedSocket }));
      });
      req.on('error', fail);
      req.end();
    });
  try {
    await get();
    await delay(idleMs);
    return await get();
  } finally {
    agent.destroy();
  }
}

function signIn(port: number, credentials: { email: string; password: string }) {
  return fetch(`http://127.0.0.1:${port}/api/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
}

/** The curl commands of the first start's hints, as a newcomer would paste them. */
function curlSteps(output: string): string {
  const lines = output.split('\n');
  const from = lines.findIndex((line) => line.startsWith('Or with curl'));
  const to = lines.findIndex((line, index) => index > from && line.trim() === '');
  expect(from).toBeGreaterThan(-1);
  return lines
    .slice(from + 1, to)
    .map((line) => line.replace(/^ {2}/, ''))
    .join('\n');
}

/** A POST whose body is still arriving: a request in flight until `finish()`. */
function slowRequest(port: number, path: string, body: string) {
  let pending = () => {};
  const answer = new Promise<{ status: number | undefined }>((done, fail) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.once('end', () => done({ status: response.statusCode }));
      },
    );
    outgoing.once('error', fail);
    outgoing.write(body.slice(0, 10));
    pending = () => outgoing.end(body.slice(10));
  });
  return { answer, finish: () => pending() };
}

/** A site whose operator comes from OPERATOR_EMAIL, started; resolves once its port accepts. */
async function startedWithOperator(): Promise<{ site: Site; first: Server }> {
  const site = await newSite({
    OPERATOR_EMAIL: operator.email,
    OPERATOR_PASSWORD: operator.password,
  });
  const first = start(site);
  await portAccepts(first);
  return { site, first };
}

async function expectPostgresStopped(site: Site) {
  expect(existsSync(join(clusterDir(site), 'postmaster.pid'))).toBe(false);
  expect(await accepts(site.postgresPort)).toBe(false);
}

// Each test starts PostgreSQL (initdb included) and the server more than once: minutes under load.
describe('npm start on the embedded default', { timeout: 180_000 }, () => {
  it("first start: the hints' curl steps lead from registration to the company's customers; SIGTERM answers the request in flight, stops PostgreSQL, exits 0 with one line", async () => {
    const site = await newSite();
    const server = start(site);
    await portAccepts(server);
    await printed(server, 'Health and projector lag');

    const { stdout } = await execFileAsync('bash', [
      '-euo',
      'pipefail',
      '-c',
      curlSteps(server.output()),
    ]);
    expect(stdout.endsWith('[]')).toBe(true);

    const inFlight = slowRequest(server.port, '/api/auth', JSON.stringify(operator));
    await delay(100);
    const before = server.output().length;
    server.child.kill('SIGTERM');
    await delay(300);
    inFlight.finish();
    expect((await inFlight.answer).status).toBe(401);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    // Besides the in-flight request's own log line, the stop says one thing.
    const afterSignal = server
      .output()
      .slice(before)
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(afterSignal).toEqual([
      expect.objectContaining({ msg: 'shutting down', signal: 'SIGTERM' }),
      expect.objectContaining({ msg: 'request', status: 401 }),
    ]);
    await expectPostgresStopped(site);
  });

  it('a first start whose port is taken prints the generated operator anyway, stops PostgreSQL and exits 1; the printed password signs in once the port is free', async () => {
    const site = await newSite();
    const squatter = createServer().listen(site.port, '0.0.0.0');
    await once(squatter, 'listening');
    const failed = start(site);
    expect(await failed.exited).toEqual({ code: 1, signal: null });
    const output = failed.output();
    expect(output).toContain(`could not listen on port ${site.port}: another program`);
    const email = /^ {2}email: {4}(\S+)$/m.exec(output)?.[1];
    const password = /^ {2}password: (\S+)$/m.exec(output)?.[1];
    expect(email && password, output).toBeTruthy();
    await expectPostgresStopped(site);

    await new Promise((closed) => squatter.close(closed));
    const again = start(site);
    await portAccepts(again);
    expect(
      (await signIn(again.port, { email: email ?? '', password: password ?? '' })).status,
    ).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exited).toEqual({ code: 0, signal: null });
  });

  it('when the embedded PostgreSQL is killed, says so, stops and exits 1; the next start works on the same data', async () => {
    const { site, first } = await startedWithOperator();
    const postmaster = await runningPostmaster(clusterDir(site));
    if (!postmaster) throw new Error(`no postmaster:\n${first.output()}`);

    process.kill(postmaster.pid, 'SIGKILL');
    expect(await first.exited).toEqual({ code: 1, signal: null });
    expect(first.output()).toContain('The embedded PostgreSQL (data in');
    expect(first.output()).toContain('stopped unexpectedly');
    expect(await accepts(site.port)).toBe(false);

    const again = start(site);
    await portAccepts(again);
    expect((await signIn(again.port, operator)).status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exited).toEqual({ code: 0, signal: null });
  });

  it('with OPERATOR_EMAIL: a sign-in the moment the port accepts answers 200; after a SIGKILL, the next `npm start` takes over PostgreSQL and SIGTERM to npm stops all of it', async () => {
    const { site, first } = await startedWithOperator();
    expect((await signIn(first.port, operator)).status).toBe(200);
    // A load balancer's idle connection outlives Node's default 5 s (nginx keeps them 60 s).
    expect(await secondRequestAfterIdle(first.port, 6_000)).toEqual({
      status: 200,
      reusedSocket: true,
    });

    first.child.kill('SIGKILL');
    await first.exited;
    expect(await runningPostmaster(clusterDir(site))).toBeDefined();

    const again = start(site, 'npm start');
    await portAccepts(again);
    expect((await signIn(again.port, operator)).status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exited).toEqual({ code: 0, signal: null });
    expect(await accepts(site.port)).toBe(false);
    await expectPostgresStopped(site);
  });
});
