import type { PaymentCurrency } from '@issuer/events';
import type {
  PaymentTerminalGateway,
  SavedCardChargeRequest,
  TerminalPaymentRequest,
} from '../gateway';

export interface RecordingGateway extends PaymentTerminalGateway {
  readonly sent: TerminalPaymentRequest[];
  readonly charged: SavedCardChargeRequest[];
  readonly cancelled: { paymentId: string; terminalId: string }[];
  readonly refunded: {
    paymentId: string;
    refundId: string;
    amountCents: number;
    currency: PaymentCurrency;
  }[];
}

/**
 * A gateway that only records what it was asked to do: no card is ever presented, no webhook
 * comes back. For tests, and the stand-in until the terminal simulator is wired. Like a real
 * processor it answers the same gateway payment id for a repeated payment id.
 */
export function recordingGateway(): RecordingGateway {
  const sent: TerminalPaymentRequest[] = [];
  const charged: SavedCardChargeRequest[] = [];
  const cancelled: RecordingGateway['cancelled'] = [];
  const refunded: RecordingGateway['refunded'] = [];
  return {
    name: 'recording',
    sent,
    charged,
    cancelled,
    refunded,
    async sendPayment(request) {
      sent.push(request);
      return { gatewayPaymentId: `gw_${request.paymentId}` };
    },
    async chargeSavedCard(request) {
      charged.push(request);
      return { gatewayPaymentId: `gw_${request.paymentId}` };
    },
    async cancelPayment(request) {
      cancelled.push(request);
    },
    async refundPayment(request) {
      refunded.push(request);
    },
  };
}
