import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createLogger, loadConfigOrExit, openInfrastructure } from '../../infrastructure';
import { etransferWebhookSecretOf } from '../../payments/webhooks/webhookSignature';
import { createEtransferSimulator } from './etransferSimulator';
import { etransferSimulatorServer } from './etransferSimulatorServer';

/**
 * `npm run etransfer-simulator`: the e-transfer simulator as its own process, as a real provider
 * would be. Run the API with ETRANSFER_PROVIDER_URL=http://127.0.0.1:<ETRANSFER_SIMULATOR_PORT>;
 * both derive the same key from TOKEN_SECRET. Its tables live in the same PostgreSQL.
 */
async function main() {
  const config = await loadConfigOrExit('api');
  const logger = createLogger(config);
  const infrastructure = await openInfrastructure(config, logger);
  const clock = () => new Date();
  const secret = etransferWebhookSecretOf(config);
  const simulator = createEtransferSimulator({
    pool: infrastructure.pool,
    clock,
    secret,
    webhookUrl: config.etransferWebhookUrl,
    logger,
    delivery: config.terminalSimulatorMisbehaviour,
  });
  const app = etransferSimulatorServer(simulator, { secret, clock });
  const server = serve({
    fetch: app.fetch,
    port: config.etransferSimulatorPort,
    hostname: '0.0.0.0',
  });
  simulator.start();
  logger.info(
    { port: config.etransferSimulatorPort, webhookUrl: config.etransferWebhookUrl },
    `e-transfer simulator listening on http://localhost:${config.etransferSimulatorPort}`,
  );
  const stop = async () => {
    await new Promise((resolve) => (server as Server).close(resolve));
    await simulator.stop();
    await infrastructure.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error('The e-transfer simulator failed to start:', error);
  process.exit(1);
});
