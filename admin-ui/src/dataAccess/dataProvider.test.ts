import { HttpError } from 'react-admin';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authProvider } from '../session/authProvider';
import { endSession } from '../session/sessionStore';
import { type ApiOverHttp, startApiOverHttp } from '../testing/apiOverHttp';
import { dataProvider } from './dataProvider';

let api: ApiOverHttp;
beforeAll(async () => {
  api = await startApiOverHttp();
});
afterAll(() => api.close());
beforeEach(() => endSession());

const allTerminals = {
  pagination: { page: 1, perPage: 3 },
  sort: { field: 'slot', order: 'ASC' as const },
  filter: {},
};

async function signedInCompany() {
  const company = await api.newCompany();
  await authProvider.login({ email: company.email, password: company.password });
  return company;
}

describe('payment terminals of the signed-in company', () => {
  it('are registered, listed in slot order, renamed and removed', async () => {
    await signedInCompany();
    const created = await dataProvider.create('terminals', {
      data: { name: 'Front desk', deviceId: 'POS-1' },
    });
    expect(created.data).toMatchObject({ name: 'Front desk', deviceId: 'POS-1', slot: 1 });
    await dataProvider.create('terminals', { data: { name: 'Bar', deviceId: 'POS-2' } });

    const listed = await dataProvider.getList('terminals', allTerminals);
    expect(listed.total).toBe(2);
    expect(listed.data.map((terminal) => terminal.deviceId)).toEqual(['POS-1', 'POS-2']);

    const renamed = await dataProvider.update('terminals', {
      id: created.data.id,
      data: { ...created.data, name: 'Lobby' },
      previousData: created.data,
    });
    expect(renamed.data).toMatchObject({ name: 'Lobby', deviceId: 'POS-1' });

    await dataProvider.delete('terminals', { id: created.data.id, previousData: created.data });
    const after = await dataProvider.getList('terminals', allTerminals);
    expect(after.data.map((terminal) => terminal.name)).toEqual(['Bar']);
  });

  it('stop at three, with the server’s message', async () => {
    await signedInCompany();
    for (const deviceId of ['A-1', 'A-2', 'A-3']) {
      await dataProvider.create('terminals', { data: { name: deviceId, deviceId } });
    }
    const fourth = await dataProvider
      .create('terminals', { data: { name: 'One too many', deviceId: 'A-4' } })
      .catch((error: unknown) => error);
    expect(fourth).toBeInstanceOf(HttpError);
    expect((fourth as HttpError).status).toBe(409);
    expect((fourth as HttpError).message).toMatch(/3/);
    expect((await dataProvider.getList('terminals', allTerminals)).total).toBe(3);
  });

  it('are one company’s only: another company sees none of them', async () => {
    await signedInCompany();
    await dataProvider.create('terminals', { data: { name: 'Mine', deviceId: 'MINE-1' } });
    await signedInCompany();
    expect((await dataProvider.getList('terminals', allTerminals)).total).toBe(0);
  });
});

describe("the operator's companies", () => {
  it('are listed with react-admin’s paging, then verified and made issuers', async () => {
    const company = await api.newCompany();
    await authProvider.login(await api.newOperator());
    const page = await dataProvider.getList('companies', {
      pagination: { page: 1, perPage: 500 },
      sort: { field: 'name', order: 'ASC' },
      filter: { q: company.companySymbol },
    });
    expect(page.total).toBe(1);
    const [record] = page.data;
    expect(record).toMatchObject({
      name: company.companyName,
      contactEmail: company.email,
      verified: false,
      isIssuer: false,
    });
    const byEmail = await dataProvider.getList('companies', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'name', order: 'ASC' },
      filter: { q: company.email.toUpperCase() },
    });
    expect(byEmail.data.map((row) => row.id)).toEqual([record?.id]);

    const verified = await dataProvider.verifyCompany(String(record?.id));
    expect(verified.data.verified).toBe(true);
    const issuer = await dataProvider.setIssuerStatus(String(record?.id), true);
    expect(issuer.data.isIssuer).toBe(true);
    const revoked = await dataProvider.setIssuerStatus(String(record?.id), false);
    expect(revoked.data.isIssuer).toBe(false);
  });

  it('are refused to a company user (403, not a logout)', async () => {
    await signedInCompany();
    const failure = await dataProvider
      .getList('companies', {
        pagination: { page: 1, perPage: 10 },
        sort: { field: 'name', order: 'ASC' },
        filter: {},
      })
      .catch((error: unknown) => error);
    expect((failure as HttpError).status).toBe(403);
  });
});
