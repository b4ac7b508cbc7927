import type { PaymentTerminalGateway } from '../gateway';

/**
 * Crash points for the process tests (PAYMENTS_TEST_FAILPOINT): the process SIGKILLs itself
 * - `after-request-before-send`: PaymentRequested is stored, the gateway was never called;
 * - `after-send-before-record`: the gateway has the payment, PaymentSentToTerminal is not stored.
 * Either way a restart must send it (again) and the card must be charged once.
 */
export const paymentFailpoints = ['after-request-before-send', 'after-send-before-record'] as const;
export type PaymentFailpoint = (typeof paymentFailpoints)[number];

export function withFailpoint(
  gateway: PaymentTerminalGateway,
  failpoint: PaymentFailpoint | undefined,
): PaymentTerminalGateway {
  if (failpoint === undefined) return gateway;
  const die = (): never => {
    process.kill(process.pid, 'SIGKILL');
    throw new Error('unreachable: SIGKILL sent to self');
  };
  return {
    ...gateway,
    async sendPayment(request) {
      if (failpoint === 'after-request-before-send') die();
      await gateway.sendPayment(request);
      return die();
    },
    async chargeSavedCard(request) {
      if (failpoint === 'after-request-before-send') die();
      await gateway.chargeSavedCard(request);
      return die();
    },
  };
}
