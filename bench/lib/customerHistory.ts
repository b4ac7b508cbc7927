import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { type BulkRow, insertBulkRows } from './loadHistory';

/**
 * Customers as events, written straight into the PostgreSQL store's tables in big transactions
 * (what `es_append` writes: positions `(xid << 20) + ordinal`, revisions from 0; see
 * bench/lib/loadHistory.ts and eventstore/src/postgres/postgresSchema.ts). Per customer: the
 * email reservation and CustomerAdded; every 20th is also starred, every 7th moves to
 * 'Registered with the product'. The companies take turns, so every batch touches all of them.
 */

export interface SeedCompany {
  companyId: string;
  userId: string;
}

export interface SeededCustomers {
  customers: number;
  events: number;
  seconds: number;
  /** A customer of the first company whose stream holds `longStreamEvents` events. */
  longStream: { customerId: string; events: number };
}

const firstNames = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Amelia',
  'Oliver',
  'Sophia',
  'Elijah',
  'Isabella',
  'Lucas',
  'Mia',
  'Mateo',
  'Charlotte',
  'Levi',
  'Ava',
  'Ezra',
  'Harper',
  'Leo',
  'Luna',
  'Asher',
  'Evelyn',
  'James',
  'Aria',
  'Ethan',
  'Ella',
  'Henry',
  'Nora',
  'Hudson',
  'Hazel',
  'Jack',
  'Zoe',
  'Owen',
  'Layla',
  'Aiden',
  'Lily',
  'Wyatt',
  'Hannah',
  'Kai',
  'Johanna',
  'Omar',
];
const lastNames = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
];
const employers = ['Northwind', 'Contoso', 'Fabrikam', 'Initech', 'Globex', 'Umbrella', 'Hooli'];

/** Matches 'Hannah' and 'Johanna': about 5% of each company, thousands of rows at scale. */
export const searchTerm = 'hanna';

const at = '2025-06-01T09:00:00.000Z';
const eventsPerTransaction = 25_000;

type Row = BulkRow;

function profile(n: number) {
  const first = firstNames[n % firstNames.length] ?? 'Ada';
  const last = lastNames[Math.floor(n / firstNames.length) % lastNames.length] ?? 'Lovelace';
  return {
    name: first,
    lastName: last,
    nickname: '',
    avatar: '',
    company: employers[n % employers.length] ?? '',
    jobTitle: '',
    email: `${first}.${last}.${n}@mail${n % 50}.example`.toLowerCase(),
    phone: `+1 555 ${String(n).padStart(7, '0')}`,
    address: '',
    birthday: '',
    notes: '',
    tags: n % 3 === 0 ? ['vip'] : [],
    roundId: '',
    tokenPrice: 1.25,
    tokenBalance: n % 10_000,
    percentageOwned: null,
    walletAddress: '',
  };
}

type StreamRow = Omit<Row, 'ord' | 'id' | 'metadata'>;

/** A new customer's first events: the email reservation and CustomerAdded. */
function addedCustomer(company: SeedCompany, fields: ReturnType<typeof profile>) {
  const customerId = randomUUID();
  const ids = { customerId, companyId: company.companyId };
  const rows: StreamRow[] = [
    {
      stream_id: `CustomerEmail-${company.companyId}:${fields.email}`,
      revision: 0,
      type: 'CustomerEmailReserved',
      data: { companyId: company.companyId, email: fields.email, customerId },
    },
    {
      stream_id: `Customer-${customerId}`,
      revision: 0,
      type: 'CustomerAdded',
      data: {
        ...ids,
        profile: fields,
        leadStatus: 'Cold',
        investorStatus: 'Not Registered',
        starred: false,
        addedAt: at,
      },
    },
  ];
  return { customerId, ids, rows };
}

/** The events of customer `n` of a company, as [streamId, revision, type, data] rows. */
function customerEvents(company: SeedCompany, n: number): StreamRow[] {
  const { customerId, ids, rows } = addedCustomer(company, profile(n));
  const stream = `Customer-${customerId}`;
  let revision = 1;
  if (n % 20 === 0)
    rows.push({ stream_id: stream, revision: revision++, type: 'CustomerStarred', data: ids });
  if (n % 7 === 0) {
    rows.push({
      stream_id: stream,
      revision: revision++,
      type: 'InvestorStatusChanged',
      data: {
        ...ids,
        from: 'Not Registered',
        to: 'Registered with the product',
        kind: 'forward',
        reason: null,
        evidence: null,
        changedBy: company.userId,
        changedAt: at,
      },
    });
  }
  return rows;
}

/** One customer whose stream is `events` long (an add, then edits of the notes). */
function longCustomer(company: SeedCompany, events: number) {
  const fields = { ...profile(0), email: 'long.history@mail.example', name: 'Longstream' };
  const { customerId, ids, rows } = addedCustomer(company, fields);
  for (let revision = 1; revision < events; revision += 1) {
    rows.push({
      stream_id: `Customer-${customerId}`,
      revision,
      type: 'CustomerUpdated',
      data: { ...ids, changes: { notes: `Call number ${revision}` } },
    });
  }
  return { customerId, rows };
}

export async function bulkLoadCustomers(
  pool: pg.Pool,
  companies: readonly SeedCompany[],
  perCompany: number,
  longStreamEvents: number,
  onProgress: (customers: number) => void,
): Promise<SeededCustomers> {
  const started = performance.now();
  const metadataOf = (company: SeedCompany): Row['metadata'] => ({
    companyId: company.companyId,
    userId: company.userId,
    correlationId: randomUUID(),
    causationId: null,
    occurredAt: at,
    schemaVersion: 1,
  });
  let batch: Row[] = [];
  let events = 0;
  let customers = 0;
  let lastReport = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await insertBulkRows(pool, batch);
    events += batch.length;
    batch = [];
    if (customers - lastReport >= 100_000) {
      lastReport = customers;
      onProgress(customers);
    }
  };
  const push = (company: SeedCompany, rows: readonly Omit<Row, 'ord' | 'id' | 'metadata'>[]) => {
    const metadata = metadataOf(company);
    for (const row of rows) batch.push({ ...row, ord: batch.length, id: randomUUID(), metadata });
  };
  const [first] = companies;
  if (!first) throw new Error('no company to seed');
  const long = longCustomer(first, longStreamEvents);
  push(first, long.rows);
  await flush();
  for (let n = 0; n < perCompany; n += 1) {
    for (const company of companies) push(company, customerEvents(company, n));
    customers += companies.length;
    if (batch.length >= eventsPerTransaction) await flush();
  }
  await flush();
  return {
    customers: customers + 1,
    events,
    seconds: (performance.now() - started) / 1000,
    longStream: { customerId: long.customerId, events: longStreamEvents },
  };
}
