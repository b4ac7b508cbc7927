import { rebuildProjections } from '@issuer/projections';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type CustomersHarness,
  startCustomersHarness,
} from '../customers/testing/customersHarness';
import { jsonOf } from '../http/testing/responses';
import { documentsProjection } from './documentsProjection';
import { formOf, pdfBytes, pngBytes } from './testing/files';

let h: CustomersHarness;
beforeAll(async () => {
  h = await startCustomersHarness();
});
afterAll(() => h?.close());

async function snapshot() {
  return {
    documents: (await h.pool.query('SELECT * FROM documents ORDER BY document_id')).rows,
    signature_requests: (await h.pool.query('SELECT * FROM signature_requests ORDER BY request_id'))
      .rows,
  };
}

it('replaying the events changes nothing, and a rebuild from the log gives the same tables', async () => {
  const company = await h.verifiedCompany();
  const customer = await h.addCustomer(company.token, { name: 'Ada', email: 'ada@replay.test' });
  const send = async (path: string, form: FormData) => {
    const res = await h.app.request(
      path,
      { method: 'POST', body: form, headers: { Authorization: `Bearer ${company.token}` } },
      { incoming: { socket: { remoteAddress: '127.0.0.1' } } },
    );
    expect(res.status).toBe(201);
    return jsonOf<{ id: string }>(res);
  };
  const kept = await send('/api/documents', formOf({ bytes: pdfBytes('kept'), name: 'a.pdf' }));
  await send(`/api/documents/${kept.id}/versions`, formOf({ bytes: pngBytes(), name: 'b.png' }));
  const gone = await send('/api/documents', formOf({ bytes: pdfBytes('gone'), name: 'c.pdf' }));
  await h.call('DELETE', `/api/documents/${gone.id}`, { token: company.token });
  for (const cancel of [false, true]) {
    const res = await h.call('POST', '/api/signature-requests', {
      token: company.token,
      body: { customerId: customer.id, documentIds: [kept.id] },
    });
    const request = await jsonOf<{ id: string }>(res);
    if (cancel) {
      await h.call('POST', `/api/signature-requests/${request.id}/cancel`, {
        token: company.token,
      });
    }
  }
  const before = await snapshot();
  expect(before.documents.map((row) => [row.status, row.version]).sort()).toEqual([
    ['active', 2],
    ['removed', 1],
  ]);
  expect(before.signature_requests.map((row) => row.status).sort()).toEqual(['cancelled', 'sent']);

  const events = (await h.store.readAll({ after: -1n, maxCount: 100_000 })).filter((event) =>
    documentsProjection.handles.includes(event.type),
  );
  const client = await h.pool.connect();
  try {
    await documentsProjection.apply(events, client);
  } finally {
    client.release();
  }
  expect(await snapshot()).toEqual(before);

  await h.stopProjectors();
  await rebuildProjections({ store: h.store, pool: h.pool, projections: [documentsProjection] });
  expect(await snapshot()).toEqual(before);
});
