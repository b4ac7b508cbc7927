import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCustomersHarness } from '../customers/testing/customersHarness';
import { errorOf, jsonOf } from '../http/testing/responses';
import { loadWallet } from '../wallet/walletCommands';
import { loadEtransfer } from './etransferCommands';
import { createEtransferScheduler } from './etransferScheduler';
import {
  type EtransferHarness,
  type EtransferResource,
  startEtransferHarness,
} from './testing/etransferHarness';

let h: EtransferHarness;
type Payee = Awaited<ReturnType<EtransferHarness['companyWithCustomer']>>;
let a: Payee;
let b: Payee;

beforeAll(async () => {
  h = await startEtransferHarness();
  a = await h.companyWithCustomer();
  b = await h.companyWithCustomer();
});
afterEach(() => h.ledger.verify(h));
afterAll(() => h?.close());

async function post(company: Payee, path: string, body?: unknown) {
  return h.call('POST', path, { token: company.token, body });
}

async function requested(company: Payee, amountCents = 5000, body: object = {}) {
  const res = await post(company, '/api/etransfers/requests', {
    customerId: company.customerId,
    amountCents,
    ...body,
  });
  expect(res.status).toBe(201);
  return jsonOf<EtransferResource>(res);
}

async function paidOut(company: Payee, amountCents: number, customerId = company.customerId) {
  return post(company, '/api/etransfers/payouts', { customerId, amountCents });
}

async function list(company: Payee, view: string) {
  const filter = encodeURIComponent(JSON.stringify({ view }));
  const res = await h.call('GET', `/api/etransfers?filter=${filter}`, { token: company.token });
  expect(res.status).toBe(200);
  return { total: res.headers.get('Content-Range'), rows: await jsonOf<EtransferResource[]>(res) };
}

describe('money requests', () => {
  it('given a request the customer pays, then deposited, in Transactions, and the balance grows', async () => {
    const before = await h.balance(a.token);
    const request = await requested(a, 5000, { message: 'Invoice 12', reference: 'INV-12' });
    expect(request).toMatchObject({
      kind: 'request',
      status: 'sent',
      customerId: a.customerId,
      email: a.email,
      amountCents: 5000,
      reference: 'INV-12',
    });
    expect((await post(a, `/api/etransfers/${request.id}/simulator/deposit`)).status).toBe(202);
    await h.settle();
    expect((await h.etransfer(a.token, request.id)).status).toBe('deposited');
    expect(await h.balance(a.token)).toBe(before + 5000);
    const res = await h.call('GET', `/api/transactions/${request.id}`, { token: a.token });
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toMatchObject({ kind: 'etransfer', netCents: 5000 });
    expect((await list(a, 'deposited')).rows.map((row) => row.id)).toContain(request.id);
  });

  it("shows the customer's name on its deposits in Transactions, and the new name after a rename", async () => {
    const company = await h.verifiedCompany();
    const email = `grace-${company.companyId}@example.test`;
    const customer = { name: 'Grace', lastName: 'Hopper', email };
    const customerId = (await h.addCustomer(company.token, customer)).id;
    const payee = { ...company, customerId, email };
    const request = await requested(payee, 2500);
    expect((await post(payee, `/api/etransfers/${request.id}/simulator/deposit`)).status).toBe(202);
    const autodeposit = { fromEmail: email, amountCents: 700 };
    expect((await post(payee, '/api/etransfers/simulator/incoming', autodeposit)).status).toBe(202);
    await h.settle();
    const names = async () => {
      const tx = await h.call('GET', '/api/transactions', { token: company.token });
      expect(tx.status).toBe(200);
      return (await jsonOf<{ kind: string; customerName: string | null }[]>(tx)).map((row) => [
        row.kind,
        row.customerName,
      ]);
    };
    expect(await names()).toEqual([
      ['etransfer', 'Grace Hopper'],
      ['etransfer', 'Grace Hopper'],
    ]);

    const renamed = await h.call('PUT', `/api/customers/${customerId}`, {
      token: company.token,
      body: { lastName: 'Murray Hopper' },
    });
    expect(renamed.status).toBe(200);
    await h.settle();
    expect(await names()).toEqual([
      ['etransfer', 'Grace Murray Hopper'],
      ['etransfer', 'Grace Murray Hopper'],
    ]);
  });

  it('declined by the customer, cancelled by the issuer; a settled one cannot be cancelled (409)', async () => {
    const declined = await requested(a);
    expect((await post(a, `/api/etransfers/${declined.id}/simulator/decline`)).status).toBe(202);
    await h.settle();
    expect((await h.etransfer(a.token, declined.id)).status).toBe('declined');
    expect((await post(a, `/api/etransfers/${declined.id}/cancel`)).status).toBe(409);

    const cancelled = await requested(a);
    const res = await post(a, `/api/etransfers/${cancelled.id}/cancel`);
    expect(res.status).toBe(200);
    expect((await jsonOf<EtransferResource>(res)).status).toBe('cancelled');
    // The simulator withdrew it too: the customer can no longer pay it.
    expect((await post(a, `/api/etransfers/${cancelled.id}/simulator/deposit`)).status).toBe(409);
  });

  it.each([
    [{ amountCents: 0 }, 'amountCents'],
    [{ amountCents: 12.5 }, 'amountCents'],
    [{ amountCents: '100' }, 'amountCents'],
    [{ message: 'x'.repeat(401) }, 'message'],
    [{ reference: 'x'.repeat(101) }, 'reference'],
    [{ expiresAt: 'tomorrow' }, 'expiresAt'],
    [{ expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt'],
    [{ customerId: '' }, 'customerId'],
  ])('refuses %j with a 400 naming %s, recording nothing', async (change, field) => {
    const before = (await list(a, 'all')).total;
    const res = await post(a, '/api/etransfers/requests', {
      customerId: a.customerId,
      amountCents: 100,
      ...change,
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields).toHaveProperty(field);
    expect((await list(a, 'all')).total).toBe(before);
  });
});

describe('incoming e-transfers', () => {
  it('matches the sender email to the customer; an unknown sender waits in Unmatched', async () => {
    const known = await post(a, '/api/etransfers/simulator/incoming', {
      fromEmail: a.email,
      amountCents: 1200,
    });
    expect(known.status).toBe(202);
    const unknown = await post(a, '/api/etransfers/simulator/incoming', {
      fromEmail: 'who-is-this@example.test',
      amountCents: 800,
    });
    expect(unknown.status).toBe(202);
    await h.settle();
    const all = (await list(a, 'all')).rows;
    expect(all.find((row) => row.email === a.email && row.kind === 'incoming')).toMatchObject({
      customerId: a.customerId,
      matchedBy: 'email',
      status: 'deposited',
    });
    const unmatched = (await list(a, 'unmatched')).rows;
    expect(unmatched.map((row) => row.email)).toEqual(['who-is-this@example.test']);
    const id = unmatched[0]?.id ?? '';

    const noReason = await post(a, `/api/etransfers/${id}/match`, { customerId: a.customerId });
    expect(noReason.status).toBe(400);
    expect((await errorOf(noReason)).fields).toHaveProperty('reason');

    const res = await post(a, `/api/etransfers/${id}/match`, {
      customerId: a.customerId,
      reason: 'Sent from her husband’s account',
    });
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toMatchObject({
      customerId: a.customerId,
      matchedBy: 'manual',
      matchedByUser: a.userId,
      matchReason: 'Sent from her husband’s account',
    });
    expect((await list(a, 'unmatched')).rows).toEqual([]);
    // Its Transactions row now belongs to the customer too.
    const filter = encodeURIComponent(JSON.stringify({ customerId: a.customerId }));
    const tx = await h.call('GET', `/api/transactions?filter=${filter}&range=[0,999]`, {
      token: a.token,
    });
    const ids = (await jsonOf<{ id: string }[]>(tx)).map((row) => row.id);
    expect(ids).toContain(id);
    expect(Number(tx.headers.get('Content-Range')?.split('/')[1])).toBe(ids.length);
  });

  it('matches by the reference of an earlier request when the sender is unknown', async () => {
    await requested(a, 300, { reference: 'REF-777' });
    await post(a, '/api/etransfers/simulator/incoming', {
      fromEmail: 'bank-of-someone@example.test',
      amountCents: 300,
      reference: 'REF-777',
    });
    await h.settle();
    const row = (await list(a, 'all')).rows.find((r) => r.email === 'bank-of-someone@example.test');
    expect(row).toMatchObject({ customerId: a.customerId, matchedBy: 'reference' });
  });
});

describe('the views', () => {
  it('Requested holds the money requests awaiting payment, Sent the payouts', async () => {
    const company = await h.companyWithCustomer();
    await h.fund(company, 5000);
    const waiting = await requested(company, 700);
    const paid = await requested(company, 800);
    expect((await post(company, `/api/etransfers/${paid.id}/simulator/deposit`)).status).toBe(202);
    const payout = await jsonOf<EtransferResource>(await paidOut(company, 900));
    await h.settle();
    const ids = async (view: string) => (await list(company, view)).rows.map((row) => row.id);
    // The provider has the request at once: it is `sent`, and still waits for the customer.
    expect(waiting.status).toBe('sent');
    expect(await ids('requested')).toEqual([waiting.id]);
    expect(await ids('sent')).toEqual([payout.id]);
    expect(await ids('deposited')).toContain(paid.id);
    expect(await ids('deposited')).not.toContain(waiting.id);
  });
});

describe('payouts', () => {
  it('debits the balance, is sent; more than the balance is 409 naming amountCents', async () => {
    const company = await h.companyWithCustomer();
    await h.fund(company, 5000);
    const res = await paidOut(company, 3000);
    expect(res.status).toBe(201);
    const payout = await jsonOf<EtransferResource>(res);
    expect(payout).toMatchObject({ kind: 'payout', amountCents: 3000 });
    await h.settle();
    expect((await h.etransfer(company.token, payout.id)).status).toBe('sent');
    expect(await h.balance(company.token)).toBe(2000);
    const tx = await h.call('GET', `/api/transactions/${payout.id}`, { token: company.token });
    expect(await jsonOf(tx)).toMatchObject({
      kind: 'payout',
      status: 'succeeded',
      netCents: -3000,
    });

    const over = await paidOut(company, 2001);
    expect(over.status).toBe(409);
    expect((await errorOf(over)).fields).toHaveProperty('amountCents');
    expect(await h.balance(company.token)).toBe(2000);
  });

  it('right after a deposit the balance shows, before the wallet recorder has run, is decided on it', async () => {
    const company = await h.companyWithCustomer();
    const res = await post(company, '/api/etransfers/simulator/incoming', {
      fromEmail: `early-${company.companyId}@example.test`,
      amountCents: 4000,
    });
    expect(res.status).toBe(202);
    await h.simulator.deliverDue();
    await expect.poll(() => h.balance(company.token)).toBe(4000);
    expect((await loadWallet(h.deps, company.companyId)).balanceCents).toBe(0);

    expect((await paidOut(company, 4001)).status).toBe(409);
    expect((await paidOut(company, 2500)).status).toBe(201);
    await h.settle();
    expect((await loadWallet(h.deps, company.companyId)).balanceCents).toBe(1500);
    expect(await h.balance(company.token)).toBe(1500);
  });

  it('a payout the provider cannot deliver fails and gives the money back', async () => {
    const company = await h.companyWithCustomer();
    const stranger = await h.addPayee(company.token, `nobody+unregistered@example.test`);
    await h.fund(company, 1000);
    const res = await paidOut(company, 1000, stranger);
    expect(res.status).toBe(201);
    const payout = await jsonOf<EtransferResource>(res);
    await h.settle();
    expect(await h.etransfer(company.token, payout.id)).toMatchObject({
      status: 'failed',
      failureReason: 'recipient_not_registered',
    });
    expect(await h.balance(company.token)).toBe(1000);
    expect((await loadWallet(h.deps, company.companyId)).balanceCents).toBe(1000);
    expect((await paidOut(company, 1000)).status).toBe(201);
  });

  it('concurrent payouts never overdraw: exactly what the balance covers goes out', async () => {
    const company = await h.companyWithCustomer();
    await h.fund(company, 10_000);
    const answers = await Promise.all(Array.from({ length: 8 }, () => paidOut(company, 3000)));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    await h.settle();
    expect((await loadWallet(h.deps, company.companyId)).balanceCents).toBe(1000);
    expect(await h.balance(company.token)).toBe(1000);
  });
});

describe('tenancy', () => {
  it("another company's e-transfer is 404 on every route and absent from its lists", async () => {
    const mine = await requested(a, 700);
    const paths: [string, string, unknown?][] = [
      ['GET', `/api/etransfers/${mine.id}`],
      ['POST', `/api/etransfers/${mine.id}/cancel`],
      ['POST', `/api/etransfers/${mine.id}/match`, { customerId: b.customerId, reason: 'x' }],
      ['POST', `/api/etransfers/${mine.id}/simulator/deposit`],
      ['POST', `/api/etransfers/${mine.id}/simulator/decline`],
      ['GET', '/api/etransfers/et_not-an-id'],
    ];
    for (const [method, path, body] of paths) {
      const res = await h.call(method, path, { token: b.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await list(b, 'all')).rows.map((row) => row.id)).not.toContain(mine.id);
    const legacy = await h.call('GET', '/api/contacts-app/etransfers', { token: b.token });
    expect((await jsonOf<EtransferResource[]>(legacy)).map((row) => row.id)).not.toContain(mine.id);
    expect((await h.etransfer(a.token, mine.id)).status).toBe('sent');
  });

  it("another company's customer is 404 for requests and payouts", async () => {
    const res = await post(b, '/api/etransfers/requests', {
      customerId: a.customerId,
      amountCents: 100,
    });
    expect(res.status).toBe(404);
    expect((await paidOut(b, 100, a.customerId)).status).toBe(404);
  });

  it('needs a token', async () => {
    expect((await h.call('GET', '/api/etransfers')).status).toBe(401);
    expect((await h.call('POST', '/api/etransfers/payouts', { body: {} })).status).toBe(401);
  });
});

describe('GET /api/contacts-app/etransfers (the seed call)', () => {
  it('answers the view from the same read model', async () => {
    const res = await h.call('GET', '/api/contacts-app/etransfers?id=deposited', {
      token: a.token,
    });
    expect(res.status).toBe(200);
    const rows = await jsonOf<EtransferResource[]>(res);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.status === 'deposited')).toBe(true);
  });
});

describe('a provider that cannot be reached', () => {
  it('leaves the request and the payout recorded; the timer hands them over later', async () => {
    const company = await h.companyWithCustomer();
    await h.fund(company, 2000);
    h.failNextProviderCalls(2);
    const request = await requested(company, 300);
    expect(request.status).toBe('requested');
    const res = await paidOut(company, 2000);
    expect(res.status).toBe(201);
    const payout = await jsonOf<EtransferResource>(res);
    expect(payout.status).toBe('requested');
    expect(await h.balance(company.token)).toBe(0);

    const scheduler = createEtransferScheduler(h.deps, { resendAfterMs: 30_000 });
    expect((await scheduler.runOnce()).resent).toEqual([]);
    h.advanceClock(31_000);
    expect((await scheduler.runOnce()).resent).toEqual(
      expect.arrayContaining([request.id, payout.id]),
    );
    await h.settle();
    expect((await h.etransfer(company.token, request.id)).status).toBe('sent');
    expect((await h.etransfer(company.token, payout.id)).status).toBe('sent');
    expect(await h.balance(company.token)).toBe(0);
  });
});

describe('GET /api/etransfers/simulator (whether the UI offers the sandbox)', () => {
  it('answers 200 while the simulator is the provider', async () => {
    const res = await h.call('GET', '/api/etransfers/simulator', { token: a.token });
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toMatchObject({ provider: expect.any(String) });
  });

  it('is 404 with another provider, as every sandbox route is', async () => {
    const plain = await startCustomersHarness();
    try {
      const owner = await plain.verifiedCompany();
      for (const [method, path, body] of [
        ['GET', '/api/etransfers/simulator', undefined],
        ['POST', '/api/etransfers/simulator/incoming', {}],
      ] as const) {
        const res = await plain.call(method, path, { token: owner.token, body });
        expect(res.status, `${method} ${path}`).toBe(404);
      }
    } finally {
      await plain.close();
    }
  });
});

// Last: moving the clock days ahead expires every token signed before.
describe('the expiry timer', () => {
  it('expires a request nobody paid at its expiry time, not before', async () => {
    const scheduler = createEtransferScheduler(h.deps);
    const request = await requested(a, 100, { expiresAt: '2025-03-03T10:00:00Z' });
    expect((await scheduler.runOnce()).expired).not.toContain(request.id);
    h.advanceClock(3 * 86_400_000);
    expect((await scheduler.runOnce()).expired).toContain(request.id);
    await h.settle();
    expect((await loadEtransfer(h.deps, request.id)).status).toBe('expired');
    const { rows } = await h.pool.query('SELECT status FROM etransfers WHERE etransfer_id = $1', [
      request.id,
    ]);
    expect(rows).toEqual([{ status: 'expired' }]);
    // The provider's copy expired at the same time: the customer can no longer pay it.
    expect(await h.simulator.deposit(a.companyId, request.id)).toBe(false);
  });
});
