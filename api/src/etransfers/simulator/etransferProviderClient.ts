import { signedPost } from '../../payments/simulator/terminalGatewayClient';
import { etransferSignatureHeader } from '../../payments/webhooks/webhookSignature';
import { type EtransferSimulatorProvider, etransferSimulatorName } from './etransferSimulator';

/**
 * The API's adapter to `npm run etransfer-simulator`: the same port over HTTP, each request
 * signed. A 4xx becomes the DomainError the in-process adapter throws; a network failure or a 5xx
 * is an Error (the timer hands the e-transfer over again; every call is idempotent by its id).
 */
export function createEtransferProviderClient(options: {
  url: string;
  secret: Uint8Array;
  clock: () => Date;
}): EtransferSimulatorProvider {
  const settings = { ...options, header: etransferSignatureHeader, label: 'e-transfer simulator' };
  const call = async <T>(path: string, body: unknown) =>
    (await (await signedPost(settings, path, body)).json()) as T;
  return {
    name: etransferSimulatorName,
    requestMoney: (request) => call('/requests', request),
    async cancelRequest(request) {
      await call('/requests/cancel', request);
    },
    sendMoney: (request) => call('/payouts', request),
    deposit: async (companyId, etransferId) =>
      (await call<{ done: boolean }>('/requests/deposit', { companyId, etransferId })).done,
    decline: async (companyId, etransferId) =>
      (await call<{ done: boolean }>('/requests/decline', { companyId, etransferId })).done,
    incoming: (request) => call('/incoming', request),
  };
}
