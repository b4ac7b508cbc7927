import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { isReadyMessage } from '../servers/serve';
import { onCleanup } from './cleanup';
import { freePort } from './net';

export interface ChildServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts `bench/servers/<file>` in its own Node process (through tsx) so the load generator in
 * this process and the server each get a core, as they would on two machines.
 */
export async function startChildServer(
  file: string,
  env: Record<string, string>,
  { readyTimeoutMs = 60_000 }: { readyTimeoutMs?: number } = {},
): Promise<ChildServer> {
  const port = await freePort();
  const entry = fileURLToPath(new URL(`../servers/${file}`, import.meta.url));
  const child = fork(entry, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env, PORT: String(port), NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stop = onCleanup(`child server ${file}`, () => stopChild(child));
  try {
    await waitForReady(child, readyTimeoutMs, file);
  } catch (error) {
    await stop();
    throw error;
  }
  if (child.pid === undefined) throw new Error(`${file} has no pid`);
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop };
}

function waitForReady(child: ChildProcess, timeoutMs: number, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${file} not ready in ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.on('message', (message) => {
      if (!isReadyMessage(message)) return;
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited with ${code} before it was ready`));
    });
  });
}

/** SIGTERM, then SIGKILL after 10 s if it is still there. */
export async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
