import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onCleanup } from '../lib/cleanup';
import { freePort, waitFor200 } from '../lib/net';
import type { BenchOptions } from '../lib/options';
import { spawnGroup } from '../lib/processGroup';
import { type Figure, figure, notMeasured } from '../lib/report';

const SECTION = 'coldstart';
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const START_TIMEOUT_MS = 120_000;

interface Launch {
  label: string;
  command: string;
  args: string[];
  healthPath: string;
}

/**
 * `npm start` on a data folder that already exists, to the first 200 from GET /api/health. Each
 * launch runs twice in its own temp folder: the first start creates the folder (initdb,
 * migrations, generated secret), the second is the one timed. The baseline does the same with a
 * process that only starts the embedded PostgreSQL on its folder and answers a Hono route after a
 * `SELECT 1`: the floor under any app on this stack.
 */
export async function benchColdStart(_options: BenchOptions): Promise<Figure[]> {
  const baseline = await timeSecondStart({
    label: 'baseline (npm exec tsx, embedded PG, Hono)',
    command: 'npx',
    args: ['--no-install', 'tsx', 'bench/servers/coldBaseline.ts'],
    healthPath: '/health',
  });
  if (!existsSync(join(repoRoot, 'api/src/main.ts')))
    return [
      notMeasured(SECTION, 'npm start → first answer', 'api/src/main.ts not available yet'),
      figure(SECTION, 'baseline start → first answer', baseline.secondMs, 'ms'),
    ];
  const app = await timeSecondStart({
    label: 'npm start',
    command: 'npm',
    args: ['start', '--silent'],
    healthPath: '/api/health',
  });
  return [
    figure(SECTION, 'npm start → first answer', app.secondMs, 'ms', {
      baseline: { name: 'tsx + embedded PG + Hono', value: baseline.secondMs },
      note: `first start (creates the data folder) ${Math.round(app.firstMs)} ms; baseline first start ${Math.round(baseline.firstMs)} ms; the issue sets no target`,
    }),
  ];
}

async function timeSecondStart(launch: Launch): Promise<{ firstMs: number; secondMs: number }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'issuer-bench-coldstart-'));
  // mkdtemp makes it 0700; as root the embedded PostgreSQL runs as the `postgres` user and must
  // reach DATA_DIR/postgres inside it, as it can in a ./data made by mkdir.
  await chmod(dataDir, 0o755);
  const removeDir = onCleanup(`cold-start folder ${dataDir}`, () =>
    rm(dataDir, { recursive: true, force: true }),
  );
  try {
    const firstMs = await timeOneStart(launch, dataDir);
    const secondMs = await timeOneStart(launch, dataDir);
    console.error(
      `  ${launch.label}: first start ${Math.round(firstMs)} ms, second start ${Math.round(secondMs)} ms`,
    );
    return { firstMs, secondMs };
  } finally {
    await removeDir();
  }
}

async function timeOneStart(launch: Launch, dataDir: string): Promise<number> {
  const [port, postgresPort] = [await freePort(), await freePort()];
  const started = process.hrtime.bigint();
  const server = spawnGroup(launch.command, launch.args, {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_POSTGRES_PORT: String(postgresPort),
      LOG_LEVEL: 'warn',
    },
  });
  try {
    await waitFor200(`http://127.0.0.1:${port}${launch.healthPath}`, {
      timeoutMs: START_TIMEOUT_MS,
      intervalMs: 20,
      stillAlive: () => !server.exited(),
    });
    return Number(process.hrtime.bigint() - started) / 1e6;
  } catch (error) {
    throw new Error(
      `${launch.label}: ${error instanceof Error ? error.message : String(error)}\n${server.output()}`,
    );
  } finally {
    const stopped = await server.stop();
    if (!stopped.graceful)
      console.error(`  ${launch.label} did not stop on SIGTERM within the grace period; killed`);
  }
}
