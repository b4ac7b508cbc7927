import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import {
  ListeningReadModelWaiter,
  type ProjectorRunner,
  readProjectionStatus,
  startProjectors,
} from '@issuer/projections';
import pg from 'pg';
import { createApp } from './app';
import type { AppDependencies, ReadModelWaiter } from './http';
import {
  allProjections,
  createLogger,
  type Infrastructure,
  loadConfigOrExit,
  openInfrastructure,
} from './infrastructure';
import { publisherCheckpointNames, startPublishing } from './kafka/publishing';
import { printFirstStartGuidance } from './startupGuidance';
import { hasBuiltUi } from './ui/serveUi';

/** Built by `npm run build:ui` (and by `npm start` itself when missing or stale). */
const uiDistDir = fileURLToPath(new URL('../../admin-ui/dist', import.meta.url));

/** `npm start`: the API, and (unless PROJECTORS=external) the projectors in the same process. */
async function main() {
  const config = await loadConfigOrExit('api');
  const logger = createLogger(config);
  const infrastructure = await openInfrastructure(config, logger);
  const readSide = await startReadSide(infrastructure);
  const publishing =
    config.projectors === 'external' ? undefined : await startPublishing(infrastructure);
  const deps: AppDependencies = {
    store: infrastructure.store,
    pool: infrastructure.pool,
    readModels: readSide.waiter,
    projectionStatus: publishing?.withStatus(readSide.status) ?? readSide.status,
    logger,
    clock: () => new Date(),
    config,
  };
  const ui = hasBuiltUi(uiDistDir)
    ? { distDir: uiDistDir, supportEmail: config.supportEmail }
    : undefined;
  if (!ui) logger.warn('admin UI not built (npm run build:ui): serving the API only');
  const app = createApp(deps, ui);
  const server = serve({ fetch: app.fetch, port: config.port, hostname: '0.0.0.0' }, (info) =>
    logger.info(
      { port: info.port },
      `Issuer Portal API listening on http://localhost:${info.port}/api`,
    ),
  );
  await printFirstStartGuidance(deps, infrastructure);

  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    server.close();
    await publishing?.stop();
    await readSide.stop();
    await infrastructure.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

interface ReadSide {
  waiter: ReadModelWaiter;
  status: AppDependencies['projectionStatus'];
  stop(): Promise<void>;
}

async function startReadSide({ config, store, pool, logger }: Infrastructure): Promise<ReadSide> {
  if (config.projectors === 'external') {
    const waiter = await ListeningReadModelWaiter.start({
      pool,
      logger,
      names: allProjections.map((projection) => projection.name),
    });
    const names = [
      ...allProjections.map((projection) => projection.name),
      ...publisherCheckpointNames(config),
    ];
    return {
      waiter,
      status: () => readProjectionStatus({ pool, store, names }),
      stop: () => waiter.close(),
    };
  }
  // Projector transactions get their own connections, so they never queue behind requests.
  const projectorPool = new pg.Pool({ ...pool.options, max: 4 });
  const runner: ProjectorRunner = await startProjectors({
    store,
    pool: projectorPool,
    logger,
    projections: allProjections,
    notifyCheckpoints: false,
  });
  return {
    waiter: runner.readModelWaiter,
    status: () => runner.status(),
    stop: async () => {
      await runner.stop();
      await projectorPool.end();
    },
  };
}

main().catch((error: unknown) => {
  console.error('Issuer Portal failed to start:', error);
  process.exit(1);
});
