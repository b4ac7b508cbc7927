export {
  createPaymentScheduler,
  type PaymentScheduler,
  type PaymentSchedulerOptions,
  startPaymentScheduler,
} from './paymentScheduler';
export { paymentTimersProjection } from './paymentTimersProjection';
