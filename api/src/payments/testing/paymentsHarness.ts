import { randomUUID } from 'node:crypto';
import {
  type Company,
  type CustomersHarness,
  startCustomersHarness,
} from '../../customers/testing/customersHarness';
import { jsonOf } from '../../http/testing/responses';
import { recordGatewayEvent } from '../paymentCommands';
import type { PaymentResource } from '../paymentView';
import type { RecordingGateway } from './recordingGateway';

export interface PaymentsHarness extends CustomersHarness {
  /** What the app asked of the card processor (a gateway that only records). */
  gateway: RecordingGateway;
  /** A verified company with one terminal registered. */
  companyWithTerminal(): Promise<Company & { terminalId: string }>;
  registerTerminal(token: string, name?: string): Promise<string>;
  /** POST /api/payments, expecting 201. */
  pay(token: string, body: Record<string, unknown>): Promise<PaymentResource>;
  /** As the processor's webhook would: the card authorized and the money captured. */
  capture(paymentId: string, amountCents?: number): Promise<void>;
  getPayment(token: string, paymentId: string): Promise<Response>;
}

let deviceCounter = 0;

/**
 * The real app on a fresh database (customers harness) with the recording gateway: payments
 * stay pending until a test reports the processor's events through `recordGatewayEvent`.
 */
export async function startPaymentsHarness(): Promise<PaymentsHarness> {
  const h = await startCustomersHarness();
  const gateway = h.deps.paymentGateway as RecordingGateway;

  async function registerTerminal(token: string, name = 'Front desk') {
    deviceCounter += 1;
    const res = await h.call('POST', '/api/terminals', {
      token,
      body: { name, deviceId: `tmr_${deviceCounter}_${Date.now().toString(36)}` },
    });
    if (res.status !== 201) throw new Error(`terminal: ${res.status} ${await res.text()}`);
    return (await jsonOf<{ id: string }>(res)).id;
  }

  return {
    ...h,
    gateway,
    registerTerminal,
    async companyWithTerminal() {
      const company = await h.verifiedCompany();
      return { ...company, terminalId: await registerTerminal(company.token) };
    },
    async pay(token, body) {
      const res = await h.call('POST', '/api/payments', { token, body });
      if (res.status !== 201) throw new Error(`pay: ${res.status} ${await res.text()}`);
      return jsonOf<PaymentResource>(res);
    },
    async capture(paymentId, amountCents) {
      const amount =
        amountCents ??
        gateway.sent.find((request) => request.paymentId === paymentId)?.amountCents ??
        0;
      const base = {
        paymentId,
        gatewayPaymentId: `gw_${paymentId}`,
        occurredAt: h.deps.clock().toISOString(),
        amountCents: amount,
        cardBrand: 'visa',
        cardLast4: '4242',
      };
      await recordGatewayEvent(h.deps, { ...base, id: randomUUID(), type: 'payment.authorized' });
      const { position } = await recordGatewayEvent(h.deps, {
        ...base,
        id: randomUUID(),
        type: 'payment.captured',
      });
      // As a request would: answer once the capture is visible to readers and read models.
      if (position !== undefined) await h.deps.readModels.waitFor(position, 10_000);
    },
    getPayment: (token, paymentId) => h.call('GET', `/api/payments/${paymentId}`, { token }),
  };
}
