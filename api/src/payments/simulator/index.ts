export { simulatorServer } from './simulatorServer';
export { migrateTerminalSimulator } from './simulatorTables';
export { createTerminalGatewayClient } from './terminalGatewayClient';
export {
  createTerminalSimulator,
  isTerminalSimulator,
  type PresentCardRequest,
  simulatorGatewayName,
  type TerminalSimulator,
  type TerminalSimulatorControls,
  type TerminalSimulatorGateway,
  type WaitingPayment,
} from './terminalSimulator';
export { defaultTestCard, outcomeOfCard, testCards } from './testCards';
export { httpTransport, type WebhookDeliveryOptions, type WebhookTransport } from './webhookOutbox';
