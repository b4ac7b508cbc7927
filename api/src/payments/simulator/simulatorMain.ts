import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createLogger, loadConfigOrExit, openInfrastructure } from '../../infrastructure';
import { simulatorServer } from './simulatorServer';
import { createTerminalSimulator } from './terminalSimulator';

/**
 * `npm run terminal-simulator`: the simulator as its own process, as a real processor would be.
 * Run the API with TERMINAL_GATEWAY_URL=http://127.0.0.1:<TERMINAL_SIMULATOR_PORT>; both need the
 * same TERMINAL_WEBHOOK_SECRET (or the same token secret it is derived from). Its tables live in
 * the same PostgreSQL (DATABASE_URL, or the embedded one of DATA_DIR: start the API first).
 */
async function main() {
  const config = await loadConfigOrExit('api');
  const logger = createLogger(config);
  const infrastructure = await openInfrastructure(config, logger);
  const clock = () => new Date();
  const webhookUrl = config.terminalWebhookUrl;
  const simulator = createTerminalSimulator({
    pool: infrastructure.pool,
    clock,
    secret: config.terminalWebhookSecret,
    webhookUrl,
    logger,
    delivery: config.terminalSimulatorMisbehaviour,
  });
  const app = simulatorServer(simulator, { secret: config.terminalWebhookSecret, clock });
  const server = serve({
    fetch: app.fetch,
    port: config.terminalSimulatorPort,
    hostname: '0.0.0.0',
  });
  simulator.start();
  logger.info(
    { port: config.terminalSimulatorPort, webhookUrl },
    `terminal simulator listening on http://localhost:${config.terminalSimulatorPort}`,
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
  console.error('The terminal simulator failed to start:', error);
  process.exit(1);
});
