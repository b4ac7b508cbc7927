import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf } from '../../http/testing/responses';
import { etransferWebhookSecretOf } from '../../payments/webhooks/webhookSignature';
import {
  type EtransferHarness,
  type EtransferResource,
  startEtransferHarness,
} from '../testing/etransferHarness';
import { createEtransferProviderClient } from './etransferProviderClient';
import { etransferSimulatorServer } from './etransferSimulatorServer';

let h: EtransferHarness;
let server: ServerType;
let url: string;
beforeAll(async () => {
  h = await startEtransferHarness();
  const secret = etransferWebhookSecretOf(h.deps.config);
  const app = etransferSimulatorServer(h.simulator, { secret, clock: h.deps.clock });
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  h.useProvider(createEtransferProviderClient({ url, secret, clock: h.deps.clock }));
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await h?.close();
});

describe('the e-transfer simulator as its own process (ETRANSFER_PROVIDER_URL)', () => {
  it('takes a request and its deposit over signed HTTP; the webhook comes back to the API', async () => {
    const company = await h.companyWithCustomer();
    const res = await h.call('POST', '/api/etransfers/requests', {
      token: company.token,
      body: { customerId: company.customerId, amountCents: 4200 },
    });
    expect(res.status).toBe(201);
    const request = await jsonOf<EtransferResource>(res);
    expect(request.status).toBe('sent');
    const deposit = await h.call('POST', `/api/etransfers/${request.id}/simulator/deposit`, {
      token: company.token,
    });
    expect(deposit.status).toBe(202);
    await h.settle();
    expect((await h.etransfer(company.token, request.id)).status).toBe('deposited');
    expect(await h.balance(company.token)).toBe(4200);
  });

  it('refuses a caller without the shared key', async () => {
    const stranger = createEtransferProviderClient({
      url,
      secret: new TextEncoder().encode('another-key-another-key-another-key!'),
      clock: h.deps.clock,
    });
    await expect(
      stranger.incoming({
        companyId: 'c',
        fromEmail: 'x@example.test',
        amountCents: 1,
        reference: null,
      }),
    ).rejects.toThrow(/401/);
  });
});
