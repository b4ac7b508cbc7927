import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, jsonOf } from '../http/testing/responses';
import type { CustomerRecord } from './customerView';
import {
  type Company,
  type CustomersHarness,
  startCustomersHarness,
} from './testing/customersHarness';

let h: CustomersHarness;
let company: Company;
beforeAll(async () => {
  h = await startCustomersHarness();
  company = await h.verifiedCompany();
});
afterAll(() => h.close());

const upload = (body: string | FormData, contentType?: string, query = '') =>
  h.app.request(`/api/customers/import${query}`, {
    method: 'POST',
    body,
    headers: {
      Authorization: `Bearer ${company.token}`,
      ...(contentType ? { 'Content-Type': contentType } : {}),
    },
  });
const search = async (q: string) => {
  const filter = encodeURIComponent(JSON.stringify({ q }));
  const res = await h.call('GET', `/api/customers?filter=${filter}&range=[0,999]`, {
    token: company.token,
  });
  return jsonOf<CustomerRecord[]>(res);
};

interface ImportAnswer {
  added: number;
  duplicates: number;
  invalid: number;
  results: { line?: number; index?: number; status: string; errors?: Record<string, string> }[];
}

describe('bulk add', () => {
  it('validates each row, adds the good ones and answers per row', async () => {
    await h.addCustomer(company.token, { email: 'known@bulk.test' });
    const res = await h.call('POST', '/api/customers/bulk', {
      token: company.token,
      body: {
        customers: [
          { name: 'One', email: 'one@bulk.test' },
          { name: 'Bad', email: 'nope' },
          { name: 'Known', email: 'KNOWN@bulk.test' },
          { name: 'One again', email: 'one@bulk.test' },
          { name: 'Two', email: 'two@bulk.test', investorStatus: 'KYC Complete', starred: true },
          'not an object',
        ],
      },
    });
    expect(res.status).toBe(200);
    const answer = await jsonOf<ImportAnswer>(res);
    expect(answer).toMatchObject({ added: 2, duplicates: 2, invalid: 2 });
    expect(answer.results.map((row) => [row.index, row.status])).toEqual([
      [0, 'added'],
      [1, 'invalid'],
      [2, 'duplicate'],
      [3, 'duplicate'],
      [4, 'added'],
      [5, 'invalid'],
    ]);
    expect(answer.results[1]?.errors).toEqual({ email: 'Please enter a valid email' });
    const added = await search('@bulk.test');
    expect(added.map((row) => row.email).sort()).toEqual([
      'known@bulk.test',
      'one@bulk.test',
      'two@bulk.test',
    ]);
    expect(added.find((row) => row.email === 'two@bulk.test')).toMatchObject({
      investorStatus: 'KYC Complete',
      starred: true,
    });
  });

  it('takes up to 1,000 rows, more than the usual body limit, and refuses 1,001', async () => {
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        name: `Row ${i}`,
        email: `r${i}@many.test`,
        notes: 'x'.repeat(100),
      }));
    const tooMany = await h.call('POST', '/api/customers/bulk', {
      token: company.token,
      body: { customers: rows(1001) },
    });
    expect(tooMany.status).toBe(400);
    const fine = await h.call('POST', '/api/customers/bulk', {
      token: company.token,
      body: { customers: rows(300) },
    });
    expect(fine.status).toBe(200);
    expect(await jsonOf(fine)).toMatchObject({ added: 300, duplicates: 0, invalid: 0 });
  }, 60_000);
});

describe('CSV import', () => {
  const badFile = [
    'First Name,Surname,E-mail,Phone,Token Balance,Wallet,Lead status,Favourite colour',
    'Ada,Lovelace,ada@csv.test,+44 1,100,,Warm,blue',
    'Bob,,not-an-email,,,,Cold,',
    'Cy,,cy@csv.test,,lots,,,',
    '"Dee, Jr.",,dee@csv.test,,,0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed,,',
    'Eve,,ada@csv.test,,,,,',
    'Fay,,,,,,,',
    'Gus,,gus@csv.test,,,,Scorching,',
    '',
    'Hal,,"hal@csv.test",,12.5,0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed,Hot,',
  ].join('\n');

  it('reports every bad row with its line number, adds the good ones and no duplicate', async () => {
    const form = new FormData();
    form.set('file', new Blob([badFile], { type: 'text/csv' }), 'customers.csv');
    form.set(
      'mapping',
      JSON.stringify({ Wallet: 'walletAddress', 'Token Balance': 'tokenBalance' }),
    );
    const res = await upload(form);
    expect(res.status).toBe(200);
    const answer = await jsonOf<
      ImportAnswer & { columns: { column: string; field: string | null }[] }
    >(res);
    expect(answer.results.map((row) => [row.line, row.status])).toEqual([
      [2, 'added'],
      [3, 'invalid'],
      [4, 'invalid'],
      [5, 'invalid'],
      [6, 'duplicate'],
      [7, 'invalid'],
      [8, 'invalid'],
      [10, 'added'],
    ]);
    expect(answer.results[1]?.errors).toEqual({ email: 'Please enter a valid email' });
    expect(answer.results[2]?.errors).toHaveProperty(['tokenBalance']);
    expect(answer.results[3]?.errors).toHaveProperty(['walletAddress']);
    expect(answer.results[5]?.errors).toEqual({ email: 'Email is required' });
    expect(answer.results[6]?.errors).toHaveProperty(['leadStatus']);
    expect(answer.columns.at(-1)).toEqual({ column: 'Favourite colour', field: null });
    const imported = await search('@csv.test');
    expect(imported.map((row) => [row.name, row.lastName, row.leadStatus]).sort()).toEqual([
      ['Ada', 'Lovelace', 'Warm'],
      ['Hal', '', 'Hot'],
    ]);
    expect(imported.find((row) => row.name === 'Hal')?.tokenBalance).toBe(12.5);

    const again = await upload(badFile, 'text/csv');
    const second = await jsonOf<ImportAnswer>(again);
    expect(second).toMatchObject({ added: 0, duplicates: 3 });
    expect(await search('@csv.test')).toHaveLength(2);
  });

  it('exports cells that a spreadsheet would run as formulas as text, and reads them back', async () => {
    const owner = await h.verifiedCompany();
    const risky = {
      email: 'formula@csv.test',
      name: '=HYPERLINK("http://evil.test","Click")',
      lastName: '@SUM(A1:A2)',
      phone: '+44 20 7946 0000',
      notes: '-2+3',
      tags: ['=cmd', 'plain'],
    };
    await h.addCustomer(owner.token, risky);
    const exported = await h.call('GET', '/api/customers/export.csv', { token: owner.token });
    const text = await exported.text();
    const [row] = parse(text, { columns: true }) as Record<string, string>[];
    expect(row).toMatchObject({
      name: `'${risky.name}`,
      lastName: `'${risky.lastName}`,
      phone: `'${risky.phone}`,
      notes: `'${risky.notes}`,
      tags: "'=cmd;plain",
      email: risky.email,
    });

    const other = await h.verifiedCompany();
    const reimport = await h.app.request('/api/customers/import', {
      method: 'POST',
      body: text,
      headers: { Authorization: `Bearer ${other.token}`, 'Content-Type': 'text/csv' },
    });
    expect(await jsonOf(reimport)).toMatchObject({ added: 1, invalid: 0 });
    const filter = encodeURIComponent(JSON.stringify({ q: 'formula@csv.test' }));
    const listed = await h.call('GET', `/api/customers?filter=${filter}`, { token: other.token });
    expect((await jsonOf<CustomerRecord[]>(listed))[0]).toMatchObject(risky);
  });

  it.each([
    ['an empty file', '', 'text/csv'],
    ['a file without an email column', 'name,phone\nAda,1\n', 'text/csv'],
    ['broken quoting', 'email,name\n"a@x.test,Ada\n', 'text/csv'],
    ['JSON instead of a file', '{"email":"a@x.test"}', 'application/json'],
  ])('refuses %s with 400 and adds nothing', async (_, body, type) => {
    const before = await h.settledHead();
    const res = await upload(body, type);
    expect(res.status).toBe(400);
    await errorOf(res);
    expect(await h.settledHead()).toBe(before);
  });

  it('refuses a mapping to an unknown field', async () => {
    const res = await upload(
      'Mail\na@x.test\n',
      'text/csv',
      `?mapping=${encodeURIComponent('{"Mail":"password"}')}`,
    );
    expect(res.status).toBe(400);
  });
});

describe('CSV export', () => {
  const companyForExport = async () => {
    const exporter = await h.verifiedCompany();
    // 1,050 customers straight into the store: more than any page or bulk cap.
    const ids = Array.from({ length: 1_050 }, () => randomUUID());
    let last: bigint | undefined;
    for (let i = 0; i < ids.length; i += 50) {
      const appended = await Promise.all(
        ids.slice(i, i + 50).map((customerId, j) =>
          h.store.appendToStream(
            `Customer-${customerId}`,
            [
              {
                id: randomUUID(),
                type: 'CustomerAdded',
                data: {
                  customerId,
                  companyId: exporter.companyId,
                  profile: {
                    name: `Holder ${String(i + j).padStart(4, '0')}`,
                    lastName: '',
                    nickname: '',
                    avatar: '',
                    company: i + j < 10 ? 'Tenfold' : '',
                    jobTitle: '',
                    email: `holder${i + j}@export.test`,
                    phone: '',
                    address: 'Line 1\nLine 2, "quoted"',
                    birthday: '',
                    notes: '',
                    tags: ['a', 'b'],
                    roundId: '',
                    tokenPrice: null,
                    tokenBalance: i + j,
                    percentageOwned: null,
                    walletAddress: '',
                  },
                  leadStatus: 'Cold',
                  investorStatus: 'Not Registered',
                  starred: false,
                  addedAt: '2025-03-01T10:00:00.000Z',
                },
                metadata: {
                  companyId: exporter.companyId,
                  userId: exporter.userId,
                  correlationId: randomUUID(),
                  causationId: null,
                  occurredAt: '2025-03-01T10:00:00.000Z',
                  schemaVersion: 1,
                },
              },
            ],
            { expectedRevision: 'no_stream' },
          ),
        ),
      );
      for (const { position } of appended)
        if (last === undefined || position > last) last = position;
    }
    // The highest position written, not the store's head: the head can trail our own commits
    // while another test's transaction holds the read horizon back.
    expect(await h.deps.readModels.waitFor(last ?? 0n, 20_000)).toBe(true);
    return exporter;
  };

  it('streams every row with the current filter and sort, quoted properly', async () => {
    const exporter = await companyForExport();
    const res = await h.call('GET', '/api/customers/export.csv?sort=["name","DESC"]', {
      token: exporter.token,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    const records = parse(await res.text(), { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(1_050);
    expect(records[0]).toMatchObject({
      name: 'Holder 1049',
      email: 'holder1049@export.test',
      address: 'Line 1\nLine 2, "quoted"',
      tags: 'a;b',
      tokenBalance: '1049',
      tokenPrice: '',
    });
    const filter = encodeURIComponent(JSON.stringify({ q: 'tenfold' }));
    const filtered = await h.call('GET', `/api/customers/export.csv?filter=${filter}`, {
      token: exporter.token,
    });
    expect(parse(await filtered.text(), { columns: true })).toHaveLength(10);
    const page = await h.call('GET', '/api/customers?range=[1025,1049]&sort=["name","ASC"]', {
      token: exporter.token,
    });
    expect(page.headers.get('Content-Range')).toBe('customers 1025-1049/1050');
    expect((await jsonOf<CustomerRecord[]>(page)).map((row) => row.name).at(-1)).toBe(
      'Holder 1049',
    );
  }, 60_000);
});
