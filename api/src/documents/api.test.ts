import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Company,
  type CustomersHarness,
  startCustomersHarness,
} from '../customers/testing/customersHarness';
import { errorOf, jsonOf } from '../http/testing/responses';
import type { DocumentResource, SignatureRequestResource } from './queries';
import { createSignatureScheduler } from './signatureScheduler';
import { formOf, htmlBytes, pdfBytes, pngBytes } from './testing/files';

let h: CustomersHarness;
let a: Company & { customerId: string };
let b: Company & { customerId: string };
let counter = 0;

async function companyWithCustomer(investorStatus = 'KYC Complete') {
  const company = await h.verifiedCompany();
  counter += 1;
  const customer = await h.addCustomer(company.token, {
    name: 'Ada',
    lastName: `Signer${counter}`,
    email: `signer${counter}-${Date.now().toString(36)}@example.test`,
    investorStatus,
  });
  return { ...company, customerId: customer.id as string };
}

beforeAll(async () => {
  h = await startCustomersHarness();
  a = await companyWithCustomer();
  b = await companyWithCustomer();
});
afterAll(() => h?.close());

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function send(token: string, path: string, form: FormData, method = 'POST') {
  return h.app.request(
    path,
    { method, body: form, headers: { Authorization: `Bearer ${token}` } },
    { incoming: { socket: { remoteAddress: '127.0.0.1' } } },
  );
}

async function upload(
  company: Company,
  bytes = pdfBytes(`${Math.random()}`),
  fields: Record<string, string> = {},
) {
  const res = await send(
    company.token,
    '/api/documents',
    formOf({ bytes, name: 'agreement.pdf', type: 'application/pdf' }, fields),
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return jsonOf<DocumentResource>(res);
}

const get = (company: Company, path: string, headers: Record<string, string> = {}) =>
  h.call('GET', path, { token: company.token, headers });

async function list(company: Company, path: string, filter: object = {}) {
  const res = await get(company, `${path}?filter=${encodeURIComponent(JSON.stringify(filter))}`);
  expect(res.status).toBe(200);
  return { range: res.headers.get('Content-Range'), rows: await jsonOf<{ id: string }[]>(res) };
}

async function fieldsOf(res: Response, status = 400) {
  expect(res.status).toBe(status);
  return (await errorOf(res)).fields ?? {};
}

describe('documents', () => {
  it('uploads a PDF, lists it, and downloads the same bytes with their headers', async () => {
    const bytes = pdfBytes('round trip');
    const document = await upload(a, bytes, { title: 'Subscription agreement' });
    expect(document).toMatchObject({
      id: expect.stringMatching(/^doc_/),
      title: 'Subscription agreement',
      status: 'active',
      fileName: 'agreement.pdf',
      mediaType: 'application/pdf',
      sizeBytes: bytes.length,
      sha256: sha(bytes),
      version: 1,
    });
    const listed = await list(a, '/api/documents');
    expect(listed.rows.map((row) => row.id)).toContain(document.id);
    expect(listed.range).toMatch(/^documents 0-\d+\/\d+$/);
    const content = await get(a, `/api/documents/${document.id}/content`);
    expect(content.status).toBe(200);
    expect(content.headers.get('Content-Type')).toBe('application/pdf');
    expect(content.headers.get('Content-Length')).toBe(String(bytes.length));
    expect(content.headers.get('Content-Disposition')).toContain('filename="agreement.pdf"');
    expect(content.headers.get('ETag')).toBe(`"${sha(bytes)}"`);
    expect(Buffer.from(await content.arrayBuffer()).equals(bytes)).toBe(true);
    const again = await get(a, `/api/documents/${document.id}/content`, {
      'If-None-Match': `"${sha(bytes)}"`,
    });
    expect(again.status).toBe(304);
  });

  it('decides the type from the bytes: HTML named .pdf is 415 and nothing is kept', async () => {
    const before = await h.pool.query('SELECT count(*)::int AS n FROM document_chunks');
    const res = await send(
      a.token,
      '/api/documents',
      formOf({ bytes: htmlBytes(), name: 'invoice.pdf', type: 'application/pdf' }),
    );
    expect(res.status).toBe(415);
    expect((await errorOf(res)).fields).toHaveProperty('file');
    const after = await h.pool.query('SELECT count(*)::int AS n FROM document_chunks');
    expect(after.rows[0].n).toBe(before.rows[0].n);
    const png = await send(a.token, '/api/documents', formOf({ bytes: pngBytes(), name: 'x.txt' }));
    expect(png.status).toBe(201);
    expect(await jsonOf(png)).toMatchObject({ mediaType: 'image/png', title: 'x' });
  });

  it('answers bad input with 400 naming the field, and changes nothing', async () => {
    const { rows } = await list(a, '/api/documents');
    expect(
      await fieldsOf(await send(a.token, '/api/documents', formOf(undefined, { title: 'x' }))),
    ).toHaveProperty('file');
    const refused = pdfBytes('never stored');
    const longTitle = formOf({ bytes: refused, name: 'a.pdf' }, { title: 'x'.repeat(201) });
    expect(await fieldsOf(await send(a.token, '/api/documents', longTitle))).toHaveProperty(
      'title',
    );
    const blob = await h.pool.query('SELECT 1 FROM document_blobs WHERE blob_key = $1', [
      sha(refused),
    ]);
    expect(blob.rowCount).toBe(0);
    const unknown = formOf({ bytes: pdfBytes(), name: 'a.pdf' }, { colour: 'red' });
    expect(await fieldsOf(await send(a.token, '/api/documents', unknown))).toHaveProperty('colour');
    const noBoundary = await h.app.request(
      '/api/documents',
      {
        method: 'POST',
        body: 'x',
        headers: { Authorization: `Bearer ${a.token}`, 'Content-Type': 'multipart/form-data' },
      },
      { incoming: { socket: { remoteAddress: '127.0.0.1' } } },
    );
    expect(await fieldsOf(noBoundary)).toHaveProperty('file');
    const json = await h.call('POST', '/api/documents', { token: a.token, body: { title: 'x' } });
    expect(await fieldsOf(json)).toHaveProperty('file');
    const empty = formOf({ bytes: Buffer.alloc(0), name: 'a.pdf' });
    expect(await fieldsOf(await send(a.token, '/api/documents', empty))).toHaveProperty('file');
    expect((await list(a, '/api/documents')).rows).toHaveLength(rows.length);
    const chunks = await h.pool.query(
      "SELECT count(*)::int AS n FROM document_chunks WHERE blob_key LIKE 'upload:%'",
    );
    expect(chunks.rows[0].n).toBe(0);
  });

  it('links a customer of the company only; another company’s customer is 404', async () => {
    const linked = await upload(a, pdfBytes('linked'), {
      customerId: a.customerId,
      roundId: 'r-7',
    });
    expect(linked).toMatchObject({ customerId: a.customerId, roundId: 'r-7' });
    expect(linked.customerName).toContain('Ada');
    const foreign = formOf({ bytes: pdfBytes('x'), name: 'a.pdf' }, { customerId: b.customerId });
    expect((await send(a.token, '/api/documents', foreign)).status).toBe(404);
    const filtered = await list(a, '/api/documents', { customerId: a.customerId });
    expect(filtered.rows.map((row) => row.id)).toEqual([linked.id]);
  });

  it('keeps old versions, stores equal bytes once, and records a removal', async () => {
    const first = pdfBytes('version one');
    const document = await upload(a, first);
    const second = pngBytes();
    const versioned = await send(
      a.token,
      `/api/documents/${document.id}/versions`,
      formOf({ bytes: second, name: 'scan.png' }),
    );
    expect(versioned.status).toBe(201);
    const body = await jsonOf<DocumentResource>(versioned);
    expect(body).toMatchObject({ version: 2, mediaType: 'image/png', sha256: sha(second) });
    expect(body.versions.map((v) => v.version)).toEqual([2, 1]);
    const old = await get(a, `/api/documents/${document.id}/content?version=1`);
    expect(Buffer.from(await old.arrayBuffer()).equals(first)).toBe(true);
    expect((await get(a, `/api/documents/${document.id}/content?version=3`)).status).toBe(404);
    expect(
      await fieldsOf(await get(a, `/api/documents/${document.id}/content?version=x`)),
    ).toHaveProperty('version');

    await upload(a, first);
    const blobs = await h.pool.query(
      'SELECT count(*)::int AS n FROM document_blobs WHERE blob_key = $1',
      [sha(first)],
    );
    expect(blobs.rows[0].n).toBe(1);

    const removed = await h.call('DELETE', `/api/documents/${document.id}`, { token: a.token });
    expect(removed.status).toBe(200);
    expect(await jsonOf(removed)).toMatchObject({ status: 'removed' });
    expect((await list(a, '/api/documents')).rows.map((row) => row.id)).not.toContain(document.id);
    const removedList = await list(a, '/api/documents', { status: 'removed' });
    expect(removedList.rows.map((row) => row.id)).toContain(document.id);
    const events = await h.store.readStream(`Document-${document.id}`);
    expect(events.map((event) => event.type)).toEqual([
      'DocumentUploaded',
      'DocumentVersionAdded',
      'DocumentRemoved',
    ]);
  });

  it("another company's document is 404 everywhere; compliance reads but cannot upload", async () => {
    const document = await upload(a);
    for (const path of [`/api/documents/${document.id}`, `/api/documents/${document.id}/content`]) {
      expect((await get(b, path)).status).toBe(404);
    }
    const version = formOf({ bytes: pdfBytes(), name: 'a.pdf' });
    expect((await send(b.token, `/api/documents/${document.id}/versions`, version)).status).toBe(
      404,
    );
    expect(
      (await h.call('DELETE', `/api/documents/${document.id}`, { token: b.token })).status,
    ).toBe(404);
    expect((await list(b, '/api/documents')).rows.map((row) => row.id)).not.toContain(document.id);
    const compliance = await h.complianceToken(a.token);
    expect(
      (await h.call('GET', `/api/documents/${document.id}`, { token: compliance })).status,
    ).toBe(200);
    const denied = await send(
      compliance,
      '/api/documents',
      formOf({ bytes: pdfBytes(), name: 'a.pdf' }),
    );
    expect(denied.status).toBe(403);
    expect((await h.call('GET', '/api/documents')).status).toBe(401);
  });
});

async function requestSignature(company: Company & { customerId: string }, body: object) {
  const res = await h.call('POST', '/api/signature-requests', {
    token: company.token,
    body: { customerId: company.customerId, ...body },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return jsonOf<SignatureRequestResource>(res);
}

const signer = { 'User-Agent': 'SignerBrowser/1.0' };
const page = (path: string, headers: Record<string, string> = {}) =>
  h.call('GET', path, { headers: { ...signer, ...headers }, from: '198.51.100.7' });
const submit = (path: string, form: Record<string, string>) =>
  h.app.request(
    path,
    {
      method: 'POST',
      body: new URLSearchParams(form),
      headers: { ...signer, 'Content-Type': 'application/x-www-form-urlencoded' },
    },
    { incoming: { socket: { remoteAddress: '198.51.100.7' } } },
  );

async function signInAgain(company: Company) {
  const res = await h.call('POST', '/api/auth', {
    body: { email: company.email, password: 'tundra-Falcon-42' },
  });
  expect(res.status).toBe(200);
  company.token = (await jsonOf<{ access_token: string }>(res)).access_token;
}

async function customerStatus(company: Company & { customerId: string }) {
  const res = await get(company, `/api/customers/${company.customerId}`);
  return (await jsonOf<{ investorStatus: string }>(res)).investorStatus;
}

describe('signature requests', () => {
  it('sends, is viewed, signed with a typed name and consent; the certificate has the hashes; the customer moves to Documents Signed', async () => {
    const signerCompany = await companyWithCustomer('KYC Complete');
    const bytes = pdfBytes('to sign');
    const document = await upload(signerCompany, bytes, { title: 'Share purchase agreement' });
    const request = await requestSignature(signerCompany, {
      documentIds: [document.id],
      roundId: 'round-1',
    });
    expect(request).toMatchObject({
      status: 'sent',
      customerId: signerCompany.customerId,
      documents: [{ documentId: document.id, version: 1, sha256: sha(bytes) }],
      signingPath: expect.stringMatching(/^\/sign\/sig_[^.]+\.[\w-]{43}$/),
    });
    const link = request.signingPath as string;
    const notice = await h.store.readStream(`Customer-${signerCompany.customerId}`);
    const sent = notice.find((event) => event.type === 'PushNotificationSent');
    expect(sent).toBeDefined();
    expect(JSON.stringify(sent?.data)).not.toContain(link.split('/')[2]);

    const shown = await page(link);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('Referrer-Policy')).toBe('no-referrer');
    expect(shown.headers.get('Content-Security-Policy')).toContain("default-src 'none'");
    const text = await shown.text();
    expect(text).toContain('Share purchase agreement');
    expect(text).toContain(sha(bytes));
    const viewed = await get(signerCompany, `/api/signature-requests/${request.id}`);
    expect(await jsonOf(viewed)).toMatchObject({ status: 'viewed' });

    const inline = await page(`${link}/documents/${document.id}`);
    expect(Buffer.from(await inline.arrayBuffer()).equals(bytes)).toBe(true);

    const noConsent = await submit(`${link}/sign`, { signerName: 'Ada Signer' });
    expect(noConsent.status).toBe(400);
    expect(await noConsent.text()).toContain('consent-error');
    const noName = await submit(`${link}/sign`, { signerName: ' ', consent: 'on' });
    expect(noName.status).toBe(400);
    expect(await noName.text()).toContain('signerName-error');

    const signed = await submit(`${link}/sign`, { signerName: 'Ada Signer', consent: 'on' });
    expect(signed.status).toBe(303);
    const done = await page(link);
    expect(await done.text()).toContain('Signed by Ada Signer');
    const resource = await jsonOf<SignatureRequestResource>(
      await get(signerCompany, `/api/signature-requests/${request.id}`),
    );
    expect(resource).toMatchObject({
      status: 'signed',
      signerName: 'Ada Signer',
      signingPath: null,
    });

    const certificate = await get(
      signerCompany,
      `/api/signature-requests/${request.id}/certificate`,
    );
    expect(certificate.status).toBe(200);
    expect(certificate.headers.get('Content-Disposition')).toContain('attachment');
    expect(await jsonOf(certificate)).toMatchObject({
      requestId: request.id,
      signer: {
        typedName: 'Ada Signer',
        consent: true,
        ip: '198.51.100.7',
        userAgent: 'SignerBrowser/1.0',
        signedAt: expect.any(String),
      },
      documents: [{ documentId: document.id, sha256: sha(bytes), hashAlgorithm: 'SHA-256' }],
    });
    const publicCertificate = await page(`${link}/certificate`);
    expect(publicCertificate.status).toBe(200);

    expect(await customerStatus(signerCompany)).toBe('Documents Signed');
    const history = await h.store.readStream(`Customer-${signerCompany.customerId}`);
    expect(history.find((event) => event.type === 'InvestorStatusChanged')?.data).toMatchObject({
      from: 'KYC Complete',
      to: 'Documents Signed',
      changedBy: 'system',
      reason: `Signature request ${request.id}`,
    });
    expect((await submit(`${link}/sign`, { signerName: 'Again', consent: 'on' })).status).toBe(200);
  });

  it('moves the customer only once every document sent for the round is signed, and only where the workflow allows', async () => {
    const company = await companyWithCustomer('KYC Complete');
    const one = await upload(company, pdfBytes('one'));
    const two = await upload(company, pdfBytes('two'));
    const first = await requestSignature(company, { documentIds: [one.id], roundId: 'r-2' });
    const second = await requestSignature(company, { documentIds: [two.id], roundId: 'r-2' });
    await submit(`${first.signingPath}/sign`, { signerName: 'Ada', consent: 'on' });
    expect(await customerStatus(company)).toBe('KYC Complete');
    await submit(`${second.signingPath}/sign`, { signerName: 'Ada', consent: 'on' });
    expect(await customerStatus(company)).toBe('Documents Signed');

    const early = await companyWithCustomer('Not Registered');
    const document = await upload(early, pdfBytes('early'));
    const request = await requestSignature(early, { documentIds: [document.id] });
    const signed = await submit(`${request.signingPath}/sign`, {
      signerName: 'Ada',
      consent: 'on',
    });
    expect(signed.status).toBe(303);
    expect(await customerStatus(early)).toBe('Not Registered');
  });

  it('declines, cancels and expires; a closed or unknown link cannot sign', async () => {
    const document = await upload(a, pdfBytes('closing'));
    const declined = await requestSignature(a, { documentIds: [document.id] });
    expect(
      (await submit(`${declined.signingPath}/decline`, { reason: 'Wrong amount' })).status,
    ).toBe(303);
    expect(await jsonOf(await get(a, `/api/signature-requests/${declined.id}`))).toMatchObject({
      status: 'declined',
      declineReason: 'Wrong amount',
    });

    const cancelled = await requestSignature(a, { documentIds: [document.id] });
    const cancel = await h.call('POST', `/api/signature-requests/${cancelled.id}/cancel`, {
      token: a.token,
    });
    expect(await jsonOf(cancel)).toMatchObject({ status: 'cancelled' });
    expect(
      (await h.call('POST', `/api/signature-requests/${cancelled.id}/cancel`, { token: b.token }))
        .status,
    ).toBe(404);
    const late = await submit(`${cancelled.signingPath}/sign`, {
      signerName: 'Ada',
      consent: 'on',
    });
    expect(late.status).toBe(410);
    const cancelDeclined = await h.call('POST', `/api/signature-requests/${declined.id}/cancel`, {
      token: a.token,
    });
    expect(cancelDeclined.status).toBe(409);

    const expiring = await requestSignature(a, { documentIds: [document.id], expiresInDays: 1 });
    h.advanceClock(86_400_000 + 1000);
    // The tokens expired with the clock; sign in again for the rest of the file.
    await signInAgain(a);
    await signInAgain(b);

    expect((await page(expiring.signingPath as string)).status).toBe(410);
    const scheduler = createSignatureScheduler(h.deps);
    expect((await scheduler.runOnce()).expired).toContain(expiring.id);
    await h.deps.readModels.waitFor((await h.settledHead()) ?? 0n, 5_000);
    const expired = await list(a, '/api/signature-requests', { status: 'expired' });
    expect(expired.rows.map((row) => row.id)).toContain(expiring.id);
    expect((await page('/sign/sig_nope.abc')).status).toBe(404);
    const forged = (declined.signingPath as string).replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A'));
    expect((await page(`/sign/${declined.id}.${'A'.repeat(43)}`)).status).toBe(404);
    expect(forged).not.toBe(declined.signingPath);
  });

  it('answers bad input with 400 naming the field; other companies’ records are 404', async () => {
    const document = await upload(a);
    const bad = (body: object) =>
      h.call('POST', '/api/signature-requests', {
        token: a.token,
        body: { customerId: a.customerId, documentIds: [document.id], ...body },
      });
    expect(await fieldsOf(await bad({ documentIds: [] }))).toHaveProperty('documentIds');
    expect(await fieldsOf(await bad({ customerId: '' }))).toHaveProperty('customerId');
    expect(await fieldsOf(await bad({ expiresInDays: 0 }))).toHaveProperty('expiresInDays');
    expect(await fieldsOf(await bad({ surprise: true }))).toHaveProperty('surprise');
    expect((await bad({ customerId: b.customerId })).status).toBe(404);
    const theirs = await upload(b);
    expect((await bad({ documentIds: [theirs.id] })).status).toBe(404);
    const request = await requestSignature(a, { documentIds: [document.id] });
    expect((await get(b, `/api/signature-requests/${request.id}`)).status).toBe(404);
    expect((await get(b, `/api/signature-requests/${request.id}/certificate`)).status).toBe(404);
    expect((await list(b, '/api/signature-requests')).rows.map((r) => r.id)).not.toContain(
      request.id,
    );
  });

  it('speaks the browser’s language, or the one chosen', async () => {
    const document = await upload(a);
    const request = await requestSignature(a, { documentIds: [document.id] });
    const link = request.signingPath as string;
    const turkish = await page(link, { 'Accept-Language': 'tr-TR,tr;q=0.9,en;q=0.5' });
    expect(await turkish.text()).toContain('İmzalanacak belgeler');
    const arabic = await (await page(`${link}?lang=ar`)).text();
    expect(arabic).toContain('dir="rtl"');
    expect(arabic).toContain('مستندات للتوقيع');
  });
});
