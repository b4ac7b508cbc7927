import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Company,
  type CustomersHarness,
  startCustomersHarness,
} from '../customers/testing/customersHarness';
import { errorOf, jsonOf } from '../http/testing/responses';

let h: CustomersHarness;
let issuer: Company;
let other: Company;
let counter = 0;

beforeAll(async () => {
  h = await startCustomersHarness();
  issuer = await h.issuerCompany();
  other = await h.issuerCompany();
});
afterAll(() => h?.close());

type Json = Record<string, unknown>;
const call = (company: Company, method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: company.token, body });

async function ok(res: Response, status = 201) {
  if (res.status !== status) throw new Error(`${res.status} ${await res.text()}`);
  return jsonOf<Json>(res);
}
async function fieldsOf(res: Response, status = 400) {
  expect(res.status).toBe(status);
  return (await errorOf(res)).fields ?? {};
}

const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

async function shareClass(company: Company, authorized = 1_000_000) {
  counter += 1;
  const made = await ok(
    await call(company, 'POST', '/api/share-classes', {
      name: `Common ${counter}`,
      kind: 'common',
      votesPerShare: 1,
      authorized,
    }),
  );
  return made.id as string;
}

async function roundBody(company: Company, body: Json = {}) {
  counter += 1;
  const now = h.deps.clock().getTime();
  return {
    name: `Seed ${counter}`,
    handle: `seed-${counter}`,
    shareClassId: await shareClass(company),
    tokenPriceCents: 250,
    raiseAmountCents: 500_000,
    minInvestmentCents: 2_500,
    maxInvestmentCents: 100_000,
    opensAt: iso(now - day),
    closesAt: iso(now + 10 * day + 1000),
    description: 'Our seed round',
    ...body,
  };
}

describe('a draft round', () => {
  it('is created with the body names of the issue and answers its derived figures', async () => {
    const body = await roundBody(issuer);
    const made = await ok(await call(issuer, 'POST', '/api/funding-rounds', body));
    expect(made).toMatchObject({
      id: expect.stringMatching(/^rnd_/),
      status: 'draft',
      name: body.name,
      handle: body.handle,
      shareClassId: body.shareClassId,
      currency: 'CAD',
      tokenPriceCents: 250,
      raiseAmountCents: 500_000,
      minInvestmentCents: 2_500,
      maxInvestmentCents: 100_000,
      tokensOffered: 2000,
      tokensAvailable: 2000,
      tokensPurchased: 0,
      amountRaisedCents: 0,
      percentageComplete: 0,
      remainingDays: 11,
      images: [],
    });
    const one = await ok(await call(issuer, 'GET', `/api/funding-rounds/${made.id}`), 200);
    expect(one).toEqual(made);
    const list = await call(issuer, 'GET', '/api/funding-rounds?range=[0,9]');
    expect(list.headers.get('Content-Range')).toMatch(/^funding-rounds 0-\d+\/\d+$/);
    expect((await jsonOf<Json[]>(list)).map((r) => r.id)).toContain(made.id);
  });

  it('is changed with PATCH and PUT while a draft, not once open; derived figures are not typed', async () => {
    const made = await ok(
      await call(issuer, 'POST', '/api/funding-rounds', await roundBody(issuer)),
    );
    const patched = await ok(
      await call(issuer, 'PATCH', `/api/funding-rounds/${made.id}`, {
        name: 'Seed (extended)',
        raiseAmountCents: 1_000_000,
        handle: 'seed-extended',
      }),
      200,
    );
    expect(patched).toMatchObject({
      name: 'Seed (extended)',
      handle: 'seed-extended',
      tokensOffered: 4000,
      tokenPriceCents: 250,
    });
    expect(
      await fieldsOf(
        await call(issuer, 'PATCH', `/api/funding-rounds/${made.id}`, { tokensPurchased: 5 }),
      ),
    ).toHaveProperty('tokensPurchased');
    const put = await ok(
      await call(issuer, 'PUT', `/api/funding-rounds/${made.id}`, {
        ...(await roundBody(issuer)),
        handle: 'seed-extended',
        shareClassId: made.shareClassId,
      }),
      200,
    );
    expect(put.description).toBe('Our seed round');
    const opened = await ok(await call(issuer, 'POST', `/api/funding-rounds/${made.id}/open`), 200);
    expect(opened.status).toBe('open');
    const late = await call(issuer, 'PATCH', `/api/funding-rounds/${made.id}`, { name: 'x' });
    expect(late.status).toBe(409);
    expect((await errorOf(late)).message).toBe('Only a draft round can be changed');
  });

  it('frees the old handle on a change, so another round can take it', async () => {
    const made = await ok(
      await call(issuer, 'POST', '/api/funding-rounds', await roundBody(issuer)),
    );
    await ok(
      await call(issuer, 'PATCH', `/api/funding-rounds/${made.id}`, { handle: `${made.handle}-b` }),
      200,
    );
    const again = await call(issuer, 'POST', '/api/funding-rounds', {
      ...(await roundBody(issuer)),
      handle: made.handle,
    });
    expect(again.status).toBe(201);
  });
});

describe('the rules of a round', () => {
  it('keeps a handle unique in the company (409), but another company may use it', async () => {
    const body = await roundBody(issuer);
    await ok(await call(issuer, 'POST', '/api/funding-rounds', body));
    const twice = await call(issuer, 'POST', '/api/funding-rounds', {
      ...(await roundBody(issuer)),
      handle: body.handle,
    });
    expect(await fieldsOf(twice, 409)).toEqual({ handle: 'Already in use' });
    const elsewhere = await call(other, 'POST', '/api/funding-rounds', {
      ...(await roundBody(other)),
      handle: body.handle,
    });
    expect(elsewhere.status).toBe(201);
  });

  it('answers 400 naming the field for bad input, and changes nothing', async () => {
    const body = await roundBody(issuer);
    const bad = async (change: Json) =>
      fieldsOf(await call(issuer, 'POST', '/api/funding-rounds', { ...body, ...change }));
    expect(await bad({ handle: 'Not a slug!' })).toHaveProperty('handle');
    expect(await bad({ tokenPriceCents: 2.5 })).toHaveProperty('tokenPriceCents');
    expect(await bad({ raiseAmountCents: -1 })).toHaveProperty('raiseAmountCents');
    expect(await bad({ opensAt: 'tomorrow' })).toHaveProperty('opensAt');
    expect(await bad({ closesAt: body.opensAt })).toHaveProperty('closesAt');
    expect(await bad({ maxInvestmentCents: 1000 })).toHaveProperty('maxInvestmentCents');
    expect(await bad({ raiseAmountCents: 100 })).toHaveProperty('raiseAmountCents');
    expect(await bad({ shareClassId: 'shc_nope' })).toEqual({
      shareClassId: 'Unknown share class',
    });
    expect(await bad({ name: undefined })).toHaveProperty('name');
    const list = await jsonOf<Json[]>(
      await call(
        issuer,
        'GET',
        `/api/funding-rounds?filter=${encodeURIComponent(JSON.stringify({ q: body.handle }))}`,
      ),
    );
    expect(list).toEqual([]);
  });

  it('never offers more tokens than the share class has left to issue (409)', async () => {
    const body = await roundBody(issuer, { shareClassId: undefined });
    const small = await ok(
      await call(issuer, 'POST', '/api/share-classes', {
        name: `Tiny ${++counter}`,
        kind: 'common',
        votesPerShare: 1,
        authorized: 100,
      }),
    );
    const res = await call(issuer, 'POST', '/api/funding-rounds', {
      ...body,
      shareClassId: small.id,
    });
    expect(await fieldsOf(res, 409)).toHaveProperty('raiseAmountCents');
  });

  it('moves draft → open → closed, or cancelled; refuses the other moves with 409', async () => {
    const a = await ok(await call(issuer, 'POST', '/api/funding-rounds', await roundBody(issuer)));
    expect((await call(issuer, 'POST', `/api/funding-rounds/${a.id}/close`)).status).toBe(409);
    await ok(await call(issuer, 'POST', `/api/funding-rounds/${a.id}/open`), 200);
    const closed = await ok(await call(issuer, 'POST', `/api/funding-rounds/${a.id}/close`), 200);
    expect(closed).toMatchObject({ status: 'closed', remainingDays: 0 });
    expect((await call(issuer, 'POST', `/api/funding-rounds/${a.id}/open`)).status).toBe(409);
    expect((await call(issuer, 'POST', `/api/funding-rounds/${a.id}/cancel`)).status).toBe(409);

    const b = await ok(await call(issuer, 'POST', '/api/funding-rounds', await roundBody(issuer)));
    const cancelled = await ok(
      await call(issuer, 'POST', `/api/funding-rounds/${b.id}/cancel`),
      200,
    );
    expect(cancelled.status).toBe('cancelled');
    const statusFilter = encodeURIComponent(JSON.stringify({ status: 'cancelled' }));
    const list = await jsonOf<Json[]>(
      await call(issuer, 'GET', `/api/funding-rounds?filter=${statusFilter}`),
    );
    expect(list.map((r) => r.id)).toEqual([b.id]);
  });

  it('refuses to open a round whose close is past', async () => {
    const now = h.deps.clock().getTime();
    const past = await ok(
      await call(
        issuer,
        'POST',
        '/api/funding-rounds',
        await roundBody(issuer, { opensAt: iso(now - 3 * day), closesAt: iso(now - day) }),
      ),
    );
    const res = await call(issuer, 'POST', `/api/funding-rounds/${past.id}/open`);
    expect(await fieldsOf(res, 409)).toHaveProperty('closesAt');
  });
});

describe('who sees rounds', () => {
  it('answers 404 for another company’s round, on every route', async () => {
    const theirs = await ok(
      await call(other, 'POST', '/api/funding-rounds', await roundBody(other)),
    );
    for (const [method, path] of [
      ['GET', `/api/funding-rounds/${theirs.id}`],
      ['PATCH', `/api/funding-rounds/${theirs.id}`],
      ['POST', `/api/funding-rounds/${theirs.id}/open`],
      ['POST', `/api/funding-rounds/${theirs.id}/cancel`],
      ['GET', '/api/funding-rounds/rnd_nonsense'],
    ] as const) {
      const res = await call(
        issuer,
        method,
        path,
        method === 'PATCH' ? { name: 'Mine' } : undefined,
      );
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const mine = await jsonOf<Json[]>(
      await call(issuer, 'GET', '/api/funding-rounds?range=[0,999]'),
    );
    expect(mine.map((r) => r.id)).not.toContain(theirs.id);
    const after = await ok(await call(other, 'GET', `/api/funding-rounds/${theirs.id}`), 200);
    expect(after.status).toBe('draft');
  });

  it('is for issuers only: a verified company without issuer status gets 403', async () => {
    const plain = await h.verifiedCompany();
    for (const [method, path] of [
      ['GET', '/api/funding-rounds'],
      ['POST', '/api/funding-rounds'],
      ['GET', '/api/e-commerce-app/products'],
    ] as const) {
      const res = await call(plain, method, path, method === 'POST' ? {} : undefined);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect((await h.call('GET', '/api/funding-rounds')).status).toBe(401);
  });
});

describe("the seed's products list", () => {
  it('answers every round of the company in the seed product shape', async () => {
    const company = await h.issuerCompany();
    const made = await ok(
      await call(
        company,
        'POST',
        '/api/funding-rounds',
        await roundBody(company, { images: ['https://example.com/seed.png'] }),
      ),
    );
    const products = await jsonOf<Json[]>(
      await call(company, 'GET', '/api/e-commerce-app/products'),
    );
    expect(products).toHaveLength(1);
    expect(products[0]).toMatchObject({
      id: made.id,
      name: made.name,
      handle: made.handle,
      categories: expect.any(Array),
      tags: expect.any(Array),
      images: [expect.objectContaining({ url: 'https://example.com/seed.png' })],
      currency: 'CAD',
      tokenPrice: 2.5,
      tokenPurchased: 0,
      percentageComplete: 0,
      raiseAmount: 5000,
      remainingDays: 11,
      priceTaxExcl: 2.5,
      priceTaxIncl: 2.5,
      taxRate: 0,
      comparedPrice: null,
      quantity: 2000,
      sku: made.handle,
      width: null,
      active: false,
    });
  });
});
