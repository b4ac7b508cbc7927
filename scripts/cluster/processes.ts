import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Processes of the cluster, started detached (a session of their own, so they outlive the
 * command that started them), each with a pid file and a log; stopped by that pid only.
 */
export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export class ProcessTable {
  constructor(private readonly stateDir: string) {}

  pidFile(name: string): string {
    return join(this.stateDir, 'pids', `${name}.pid`);
  }

  logFile(name: string): string {
    return join(this.stateDir, 'logs', `${name}.log`);
  }

  start(spec: ProcessSpec): number {
    mkdirSync(join(this.stateDir, 'pids'), { recursive: true });
    mkdirSync(join(this.stateDir, 'logs'), { recursive: true });
    const log = openSync(this.logFile(spec.name), 'a');
    try {
      const child = spawn(spec.command, spec.args, {
        cwd: spec.cwd,
        env: spec.env,
        detached: true,
        stdio: ['ignore', log, log],
      });
      if (child.pid === undefined) throw new Error(`${spec.name} did not start`);
      child.unref();
      writeFileSync(this.pidFile(spec.name), `${child.pid}\n`);
      return child.pid;
    } finally {
      closeSync(log);
    }
  }

  /** The recorded pid, when that process is still alive. */
  pid(name: string): number | undefined {
    const file = this.pidFile(name);
    if (!existsSync(file)) return undefined;
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : undefined;
  }

  /** Signals the recorded pid and waits (bounded) until it is gone; SIGKILL after the wait. */
  async stop(name: string, signal: NodeJS.Signals = 'SIGTERM', waitMs = 20_000): Promise<void> {
    const pid = this.pid(name);
    if (pid !== undefined) {
      process.kill(pid, signal);
      if (!(await gone(pid, waitMs)) && signal !== 'SIGKILL') {
        process.kill(pid, 'SIGKILL');
        await gone(pid, 5_000);
      }
    }
    rmSync(this.pidFile(name), { force: true });
  }

  /** SIGKILL, as a crash: nothing is stopped cleanly. */
  kill(name: string): Promise<void> {
    return this.stop(name, 'SIGKILL', 5_000);
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function gone(pid: number, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await sleep(100);
  }
  return !isAlive(pid);
}

/** Polls `ready` until it holds, or throws naming what did not come up. */
export async function waitUntil(
  what: string,
  ready: () => Promise<boolean>,
  timeoutMs: number,
): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await ready().catch(() => false)) return Date.now() - started;
    await sleep(200);
  }
  throw new Error(`${what} not ready after ${Math.round(timeoutMs / 1000)} s`);
}
