import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

const repoRoot = resolve(import.meta.dirname, '../../../..');

/** A repository script run as `npm run` would (tsx), in its own process with this environment. */
export function startScript(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export async function runScript(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = startScript(script, args, env);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  return { code, stdout, stderr };
}

/** The environment of `npm run projections` / `kafka:republish` against a test database and broker. */
export function kafkaProcessEnv(
  databaseUrl: string,
  settings: { brokers: readonly string[]; topicPrefix: string },
) {
  return {
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: settings.brokers.join(','),
    KAFKA_TOPIC_PREFIX: settings.topicPrefix,
    KAFKA_TOPIC_PARTITIONS: '3',
  };
}
