import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { type ServerType, serve } from '@hono/node-server';
import {
  ListeningReadModelWaiter,
  type ProjectorRunner,
  readProjectionStatus,
  startProjectors,
  TokenStandingCache,
} from '@issuer/projections';
import pg from 'pg';
import { createApp } from './app';
import { ChangeFeed } from './changes/changeFeed';
import { createSignatureScheduler } from './documents/signatureScheduler';
import { createEtransferScheduler } from './etransfers/etransferScheduler';
import type { EtransferProvider } from './etransfers/provider';
import { createEtransferProviderClient } from './etransfers/simulator/etransferProviderClient';
import {
  createEtransferSimulator,
  type EtransferSimulator,
} from './etransfers/simulator/etransferSimulator';
import { etransferWebhookPath } from './etransfers/webhookApi';
import type { AppDependencies, ReadModelWaiter } from './http';
import {
  allProjections,
  createLogger,
  endPool,
  guardedPool,
  type Infrastructure,
  loadConfigOrExit,
  openInfrastructure,
} from './infrastructure';
import { publisherCheckpointNames, startPublishing } from './kafka/publishing';
import { withFailpoint } from './payments/scheduler/failpoints';
import { startPaymentScheduler } from './payments/scheduler/paymentScheduler';
import {
  createTerminalGatewayClient,
  createTerminalSimulator,
  type TerminalSimulator,
} from './payments/simulator';
import { terminalWebhookPath } from './payments/webhooks/webhookApi';
import { etransferWebhookSecretOf } from './payments/webhooks/webhookSignature';
import { listenFailureGuidance, prepareFirstStart } from './startupGuidance';
import { createBillingCollector } from './subscriptions/billingCollector';
import { createBillingScheduler } from './subscriptions/billingScheduler';
import { createOrderProcessor } from './tokenOrders/orderProcessor';
import { SimulatedTokenLedger } from './tokenOrders/tokenLedger';
import { hasBuiltUi } from './ui/serveUi';
import { createWalletRecorder } from './wallet/walletRecorder';

/** Built by `npm run build:ui` (and by `npm start` itself when missing or stale). */
const uiDistDir = fileURLToPath(new URL('../../admin-ui/dist', import.meta.url));

/** How long a stop waits for requests in flight before it closes their connections. */
const requestDrainMs = 10_000;

/**
 * `npm start`: the API, and (unless PROJECTORS=external) the projectors in the same process.
 * The port opens only once start-up's guarantees hold (the operators exist in the read models).
 * SIGTERM or SIGINT stop it cleanly, in order: no new requests and the ones in flight answered,
 * the publisher and projectors at a checkpoint, the pools, then the embedded PostgreSQL.
 */
async function main() {
  const config = await loadConfigOrExit('api');
  const logger = createLogger(config);
  const infrastructure = await openInfrastructure(config, logger);
  const readSide = await startReadSide(infrastructure);
  const tokenStanding = await TokenStandingCache.start({ pool: infrastructure.pool, logger });
  const changes = await ChangeFeed.start({
    pool: infrastructure.pool,
    logger,
    readModels: readSide.waiter,
    maxStreams: config.changesMaxStreams,
  });
  const publishing =
    config.projectors === 'external' ? undefined : await startPublishing(infrastructure);
  const clock = () => new Date();
  const gateway = terminalGateway(infrastructure, clock);
  const etransfers = etransferProvider(infrastructure, clock);
  const deps: AppDependencies = {
    store: infrastructure.store,
    pool: infrastructure.pool,
    readModels: readSide.waiter,
    tokenStanding,
    changes,
    projectionStatus: publishing?.withStatus(readSide.status) ?? readSide.status,
    logger,
    clock,
    config,
    paymentGateway: withFailpoint(gateway.adapter, config.paymentsTestFailpoint),
    etransferProvider: etransfers.adapter,
  };
  const ui = hasBuiltUi(uiDistDir)
    ? { distDir: uiDistDir, supportEmail: config.supportEmail }
    : undefined;
  if (!ui) logger.warn('admin UI not built (npm run build:ui): serving the API only');
  const { guidance, generated } = await prepareFirstStart(deps, infrastructure);
  const app = createApp(deps, ui);
  /** What start-up opened before the port, closed in order: at a stop, or when listening fails. */
  const closeStarted = async () => {
    await publishing?.stop();
    await readSide.stop();
    await tokenStanding.close();
    await changes.close();
    await infrastructure.close();
  };
  const server = await listen(app.fetch, config.port).catch(async (error: unknown) => {
    console.error(`\n${listenFailureGuidance(config.port, error, generated)}`);
    await closeStarted();
    process.exit(1);
  });
  logger.info(
    { port: config.port },
    `Issuer Portal API listening on http://localhost:${config.port}/api`,
  );
  if (guidance) console.log(`\n${guidance}\n`);
  gateway.simulator?.start();
  etransfers.simulator?.start();
  // A crash-test process (PAYMENTS_TEST_FAILPOINT) dies at its point; resuming is the next life's job.
  const scheduler = config.paymentsTestFailpoint ? undefined : startPaymentScheduler(deps);
  const walletRecorder = createWalletRecorder(deps);
  walletRecorder.start();
  const etransferScheduler = createEtransferScheduler(deps);
  etransferScheduler.start();
  // The billing timer runs where the projectors run (`npm run projections` with PROJECTORS=external).
  const billingScheduler =
    config.projectors === 'external' ? undefined : createBillingScheduler(deps);
  billingScheduler?.start();
  const billingCollector = createBillingCollector(deps);
  billingCollector.start();
  // The simulated chain is the only TokenLedger adapter so far.
  const orderProcessor = createOrderProcessor(deps, new SimulatedTokenLedger());
  orderProcessor.start();
  const signatureScheduler = createSignatureScheduler(deps);
  signatureScheduler.start();

  const stop = async (signal: NodeJS.Signals | 'database gone', exitCode = 0) => {
    logger.info({ signal }, 'shutting down');
    try {
      // Their work in flight may call this server (the simulator's webhooks): before it closes.
      await scheduler?.stop();
      await walletRecorder.stop();
      await etransferScheduler.stop();
      await billingScheduler?.stop();
      await billingCollector.stop();
      await orderProcessor.stop();
      await signatureScheduler.stop();
      await gateway.simulator?.stop();
      await etransfers.simulator?.stop();
      await closeServer(server);
      await closeStarted();
      process.exit(exitCode);
    } catch (error) {
      logger.error({ signal, err: error }, 'stop failed');
      process.exit(1);
    }
  };
  onStopSignal(stop);
  infrastructure.onDatabaseGone((message) => {
    logger.error(message);
    // Also plainly, after the log lines of everything that just failed to reach it.
    console.error(`\n${message}\n`);
    void stop('database gone', 1);
  });
}

/**
 * The e-transfer simulator in this process by default, delivering its webhooks to this API; with
 * ETRANSFER_PROVIDER_URL, the HTTP adapter to `npm run etransfer-simulator` instead.
 */
function etransferProvider(
  { config, pool, logger }: Infrastructure,
  clock: () => Date,
): { adapter: EtransferProvider; simulator?: EtransferSimulator } {
  const secret = etransferWebhookSecretOf(config);
  if (config.etransferProviderUrl) {
    return {
      adapter: createEtransferProviderClient({ url: config.etransferProviderUrl, secret, clock }),
    };
  }
  const simulator = createEtransferSimulator({
    pool,
    clock,
    secret,
    webhookUrl: `http://127.0.0.1:${config.port}/api${etransferWebhookPath}`,
    logger,
    delivery: config.terminalSimulatorMisbehaviour,
  });
  return { adapter: simulator, simulator };
}

/**
 * The terminal simulator in this process by default, delivering its webhooks to this API over
 * HTTP; with TERMINAL_GATEWAY_URL, the HTTP adapter to `npm run terminal-simulator` instead.
 */
function terminalGateway(
  { config, pool, logger }: Infrastructure,
  clock: () => Date,
): { adapter: AppDependencies['paymentGateway']; simulator?: TerminalSimulator } {
  const secret = config.terminalWebhookSecret;
  if (config.terminalGatewayUrl) {
    return {
      adapter: createTerminalGatewayClient({ url: config.terminalGatewayUrl, secret, clock }),
    };
  }
  const simulator = createTerminalSimulator({
    pool,
    clock,
    secret,
    webhookUrl: `http://127.0.0.1:${config.port}/api${terminalWebhookPath}`,
    logger,
    delivery: config.terminalSimulatorMisbehaviour,
  });
  return { adapter: simulator, simulator };
}

/**
 * Ctrl-C reaches this process twice under `npm start` (from the terminal and forwarded by npm):
 * a repeat within a second is that echo; a later one means "stop now".
 */
function onStopSignal(stop: (signal: NodeJS.Signals) => Promise<void>) {
  let firstAt: number | undefined;
  const handle = (signal: NodeJS.Signals) => {
    if (firstAt === undefined) {
      firstAt = Date.now();
      void stop(signal);
    } else if (Date.now() - firstAt > 1_000) {
      process.exit(1);
    }
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
}

/**
 * How long an idle keep-alive connection stays open. A load balancer that reuses its idle
 * connections to the API (nginx's upstream keepalive, 60 s in deploy/nginx) must always be the
 * one to close them: when Node closed first (its default is 5 s), a request nginx sent on the
 * closing connection was reset, and nginx answers a POST it cannot resend with 502.
 */
const keepAliveTimeoutMs = 75_000;

function listen(fetch: Parameters<typeof serve>[0]['fetch'], port: number): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname: '0.0.0.0' }, () => resolve(server)) as Server;
    server.keepAliveTimeout = keepAliveTimeoutMs;
    server.headersTimeout = keepAliveTimeoutMs + 1_000;
    server.once('error', reject);
  });
}

/** Stops accepting connections and waits for the requests in flight (bounded), then closes all. */
function closeServer(server: ServerType): Promise<void> {
  const http = server as Server;
  return new Promise((resolve) => {
    const drained = setTimeout(() => http.closeAllConnections(), requestDrainMs);
    http.close(() => {
      clearTimeout(drained);
      resolve();
    });
    http.closeIdleConnections();
  });
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
      status: () => readProjectionStatus({ pool, store, names, known: waiter.positions() }),
      stop: () => waiter.close(),
    };
  }
  // Projector transactions get their own connections, so they never queue behind requests.
  const projectorPool = guardedPool(new pg.Pool({ ...pool.options, max: 4 }), logger);
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
      await endPool(projectorPool);
    },
  };
}

main().catch((error: unknown) => {
  console.error('Issuer Portal failed to start:', error);
  process.exit(1);
});
