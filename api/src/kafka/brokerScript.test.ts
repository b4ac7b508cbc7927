import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * How `scripts/kafka/broker.sh` finds a broker started with --state-dir for stop and status.
 * Starting real brokers here would take a minute each, so a stand-in process carries the command
 * line the script recognises a broker by; the start itself runs in CI (`.ci/run`) and the Kafka suites.
 */
const script = resolve(import.meta.dirname, '../../../scripts/kafka/broker.sh');
const run = promisify(execFile);

let cache: string;
const standIns: ChildProcess[] = [];

afterEach(() => {
  for (const child of standIns.splice(0)) child.kill('SIGKILL');
  rmSync(cache, { recursive: true, force: true });
});

/** A process whose command line reads like a broker of `stateDir`, registered on `port`. */
function standInBroker(stateDir: string, port: number): ChildProcess {
  mkdirSync(stateDir, { recursive: true });
  const child = spawn('bash', [
    '-c',
    `exec -a "java kafka.Kafka ${stateDir}/server.properties" sleep 300`,
  ]);
  standIns.push(child);
  writeFileSync(join(stateDir, 'broker.pid'), `${child.pid}\n`);
  writeFileSync(join(stateDir, 'broker.port'), `${port}\n`);
  mkdirSync(join(cache, 'brokers'), { recursive: true });
  writeFileSync(join(cache, 'brokers', String(port)), stateDir);
  return child;
}

async function broker(...args: string[]) {
  const env = { ...process.env, KAFKA_CACHE_DIR: cache, KAFKA_STOP_TIMEOUT: '5' };
  try {
    const { stdout } = await run('bash', [script, ...args], { env });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
const exited = (child: ChildProcess) =>
  new Promise<void>((done) => (alive(child) ? child.once('exit', () => done()) : done()));

describe('broker.sh stop and status for a broker started with --state-dir', () => {
  it('stop --state-dir finds it and stops it', async () => {
    cache = mkdtempSync(join(tmpdir(), 'broker-cache-'));
    const stateDir = join(cache, 'second');
    const child = standInBroker(stateDir, 29_500);

    const status = await broker('status', '--state-dir', stateDir);
    expect(status.stdout).toContain(`pid ${child.pid}`);

    const stop = await broker('stop', '--state-dir', stateDir);
    expect(stop.stdout).toContain(`stopped (pid ${child.pid}, state dir ${stateDir})`);
    await exited(child);
  });

  it('stop --port finds it by the port it was started on', async () => {
    cache = mkdtempSync(join(tmpdir(), 'broker-cache-'));
    const child = standInBroker(join(cache, 'by-port'), 29_502);

    const stop = await broker('stop', '--port', '29502');
    expect(stop.stdout).toContain(`stopped (pid ${child.pid}`);
    await exited(child);
  });

  it('plain stop leaves it running and says how to stop it; stop --all stops it', async () => {
    cache = mkdtempSync(join(tmpdir(), 'broker-cache-'));
    const stateDir = join(cache, 'beside');
    const child = standInBroker(stateDir, 29_504);

    const plain = await broker('stop');
    expect(plain.stdout).toContain('not running');
    expect(plain.stdout).toContain(`also running: port 29504 (--state-dir ${stateDir})`);
    expect(alive(child)).toBe(true);

    const all = await broker('stop', '--all');
    expect(all.stdout).toContain(`stopped (pid ${child.pid}`);
    await exited(child);
    expect((await broker('status', '--state-dir', stateDir)).code).toBe(3);
  });
});
