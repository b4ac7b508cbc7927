import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { onCleanup } from './cleanup';

export interface Spawned {
  child: ChildProcess;
  /** The last few KB the process printed, for error messages. */
  output(): string;
  exited(): boolean;
  /** SIGTERM to the whole group (npm, tsx, node, PostgreSQL), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<{ graceful: boolean; ms: number }>;
}

/**
 * Spawns a command as the leader of its own process group, so stopping it reaches everything it
 * started (npm → sh → node → postgres) and nothing else.
 */
export function spawnGroup(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Spawned {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4096);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not spawn ${command}`);
  let exited = false;
  const exit = once(child, 'exit').then(() => {
    exited = true;
  });

  const stop = async (graceMs = 20_000) => {
    const started = Date.now();
    if (!groupAlive(pid)) return { graceful: true, ms: 0 };
    signalGroup(pid, 'SIGTERM');
    const deadline = started + graceMs;
    while (Date.now() < deadline && groupAlive(pid)) await delay(50);
    const graceful = !groupAlive(pid);
    if (!graceful) signalGroup(pid, 'SIGKILL');
    await exit;
    return { graceful, ms: Date.now() - started };
  };
  const release = onCleanup(`process group ${pid} (${command} ${args.join(' ')})`, async () => {
    await stop(5_000);
  });
  return {
    child,
    output: () => tail,
    exited: () => exited,
    stop: async (graceMs) => {
      const result = await stop(graceMs);
      await release();
      return result;
    },
  };
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}
