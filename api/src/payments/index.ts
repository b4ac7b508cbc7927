export { paymentRoutes } from './api';
export { paymentDecider } from './businessLogic';
export type { GatewayEvent, PaymentTerminalGateway, TerminalPaymentRequest } from './gateway';
export {
  cancelPayment,
  expirePayment,
  type PaymentDeps,
  paymentStream,
  recordGatewayEvent,
  refundPayment,
  requestPayment,
  sendPaymentToTerminal,
} from './paymentCommands';
export { describePayment, type PaymentResource } from './paymentView';
