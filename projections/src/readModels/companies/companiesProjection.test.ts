import type { CompanyEvent } from '@issuer/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionDatabase, recorded } from '../testing';
import { usersProjection } from '../users/usersProjection';
import { companiesProjection } from './companiesProjection';
import { getCompanyProfile, listCompanies } from './queries';

let db: Awaited<ReturnType<typeof projectionDatabase>>;
beforeAll(async () => {
  // The list joins the users read model for each company's contact email.
  db = await projectionDatabase([companiesProjection, usersProjection]);
});
afterAll(() => db.pool.end());

const registered = (companyId: string, name: string, symbol: string): CompanyEvent => ({
  type: 'CompanyRegistered',
  data: { companyId, name, symbol, registeredBy: 'u', registeredAt: '2025-03-01T10:00:00.000Z' },
});
const terminal = (companyId: string, n: number): CompanyEvent => ({
  type: 'PaymentTerminalRegistered',
  data: { companyId, terminalId: `t-${n}`, name: `Till ${n}`, deviceId: `dev-${n}` },
});

describe('companies read model', () => {
  it('given a registration, terminals, verification and issuer status in one batch, then one row shows them all', async () => {
    const events = recorded([
      registered('c-1', 'Acme Mining', 'ACME'),
      terminal('c-1', 1),
      terminal('c-1', 2),
      terminal('c-1', 3),
      { type: 'PaymentTerminalRemoved', data: { companyId: 'c-1', terminalId: 't-1' } },
      {
        type: 'PaymentTerminalRenamed',
        data: { companyId: 'c-1', terminalId: 't-3', name: 'Door' },
      },
      { type: 'CompanyVerified', data: { companyId: 'c-1', verifiedBy: 'op', verifiedAt: 'x' } },
      { type: 'IssuerStatusGranted', data: { companyId: 'c-1', grantedBy: 'op', grantedAt: 'x' } },
    ] satisfies CompanyEvent[]);
    await db.apply(companiesProjection, events);

    const profile = await getCompanyProfile(db.pool, 'c-1');
    expect(profile).toMatchObject({
      companyId: 'c-1',
      name: 'Acme Mining',
      symbol: 'ACME',
      verified: true,
      isIssuer: true,
      fiatBalanceCents: 0n,
      currency: 'CAD',
      terminals: [
        { id: 't-2', name: 'Till 2', deviceId: 'dev-2' },
        { id: 't-3', name: 'Door', deviceId: 'dev-3' },
      ],
      position: 8n,
    });
  });

  it('given the same batch again, then nothing changes (idempotent by position)', async () => {
    const before = await getCompanyProfile(db.pool, 'c-1');
    await db.apply(
      companiesProjection,
      recorded([registered('c-1', 'Acme Mining', 'ACME'), terminal('c-1', 1)]),
    );
    expect(await getCompanyProfile(db.pool, 'c-1')).toEqual(before);
  });

  it('given an event for a company it never saw registered, then it records nothing and does not throw', async () => {
    await db.apply(
      companiesProjection,
      recorded(
        [
          {
            type: 'CompanyVerified',
            data: { companyId: 'ghost', verifiedBy: 'op', verifiedAt: 'x' },
          },
        ],
        100n,
      ),
    );
    expect(await getCompanyProfile(db.pool, 'ghost')).toBeUndefined();
  });

  it('lists companies with search, sort, range and a total', async () => {
    await db.apply(
      companiesProjection,
      recorded(
        [
          registered('c-2', 'Borealis Gold', 'BORG'),
          registered('c-3', 'Cobalt 100% Ltd', 'COB'),
          registered('c-4', 'borealis silver', 'BSLV'),
        ],
        200n,
      ),
    );
    const sorted = await listCompanies(db.pool, {
      sort: { field: 'name', order: 'DESC' },
      range: { start: 0, end: 1 },
      filter: {},
    });
    expect(sorted.total).toBe(4);
    expect(sorted.rows.map((row) => row.name)).toEqual(['Cobalt 100% Ltd', 'borealis silver']);

    const searched = await listCompanies(db.pool, {
      sort: { field: 'name', order: 'ASC' },
      range: { start: 0, end: 24 },
      filter: { q: 'boreal' },
    });
    expect(searched.rows.map((row) => row.symbol)).toEqual(['BORG', 'BSLV']);

    const percent = await listCompanies(db.pool, {
      sort: { field: 'name', order: 'ASC' },
      range: { start: 0, end: 24 },
      filter: { q: '%' },
    });
    expect(percent.rows.map((row) => row.symbol)).toEqual(['COB']);

    const verifiedOnly = await listCompanies(db.pool, {
      sort: { field: 'symbol', order: 'ASC' },
      range: { start: 0, end: 24 },
      filter: { verified: true },
    });
    expect(verifiedOnly.rows.map((row) => row.companyId)).toEqual(['c-1']);
  });
});
