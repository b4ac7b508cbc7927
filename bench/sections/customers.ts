import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { PostgresEventStore } from '@issuer/eventstore';
import { type AppProcess, registerUsers, startApp } from '../lib/appProcess';
import { rebuildAfterBulkLoad } from '../lib/bulkRebuild';
import { type ChildServer, startChildServer } from '../lib/child';
import { bulkLoadCustomers, type SeedCompany, searchTerm } from '../lib/customerHistory';
import { combineLoad, type LoadResult, type LoadRun, runLoad } from '../lib/load';
import type { BenchOptions } from '../lib/options';
import { benchPostgres, withPool } from '../lib/postgres';
import { type Figure, figure } from '../lib/report';
import { summarize } from '../lib/stats';

const SECTION = 'customers';
const COMPANIES = 10;
const CONNECTIONS = 50;
const ROUNDS = 3;
const LONG_STREAM_EVENTS = 1_000;

/**
 * Seeds `--customers` customers (default 1,000,000) across 10 companies as events, rebuilds the
 * read models from them, then measures the customer routes of the real app against plain
 * baselines on the same tables (bench/servers/bareCustomers.ts): the list page with its exact
 * total at 50 connections, a substring search matching thousands, the last page of the first
 * company, its CSV export (time and the app's peak memory) and the as-of replay of a customer
 * with 1,000 events.
 */
export async function benchCustomers(options: BenchOptions): Promise<Figure[]> {
  const postgres = await benchPostgres();
  const url = await postgres.createDatabase('bench_customers');
  const tokenSecret = randomBytes(48).toString('base64url');
  const env = { TOKEN_SECRET: tokenSecret, LOG_LEVEL: 'warn' };

  // Real registrations over HTTP (companies, admins, tokens), then verification as the operator's
  // event, then the customers straight into the store, then a rebuild.
  let app: AppProcess = await startApp(url, env);
  const users = await registerUsers(app.url, COMPANIES);
  await app.stop();
  const figures: Figure[] = [];
  const companies = await withPool(url, 4, (pool) => companiesOf(pool, users));
  const seeded = await withPool(url, 4, async (pool) => {
    await verify(pool, companies);
    const perCompany = Math.ceil(options.customers / COMPANIES);
    return bulkLoadCustomers(pool, companies, perCompany, LONG_STREAM_EVENTS, (n) =>
      console.error(`  stored ${n.toLocaleString('en-US')} customers`),
    );
  });
  console.error(
    `  stored ${seeded.customers.toLocaleString('en-US')} customers as ${seeded.events.toLocaleString('en-US')} events in ${seeded.seconds.toFixed(1)} s`,
  );
  const rebuilt = await withPool(url, 8, (pool) => rebuildAfterBulkLoad(pool, ['customers']));
  console.error(
    `  rebuild: ${rebuilt.events.toLocaleString('en-US')} events in ${rebuilt.seconds.toFixed(1)} s (${Math.round(rebuilt.eventsPerSecond)}/s)`,
  );
  figures.push(
    figure(
      SECTION,
      `rebuild of ${rebuilt.events.toLocaleString('en-US')} events`,
      rebuilt.eventsPerSecond,
      'events/s',
      {
        note: `${seeded.customers.toLocaleString('en-US')} customers in ${COMPANIES} companies, rebuilt in ${rebuilt.seconds.toFixed(0)} s`,
      },
    ),
  );

  const [first] = users;
  const [firstCompany] = companies;
  if (!first || !firstCompany) throw new Error('no company registered');
  const perCompany = Math.ceil(options.customers / COMPANIES) + 1;
  let bare: ChildServer | undefined;
  try {
    app = await startApp(url, env);
    bare = await startChildServer('bareCustomers.ts', { DATABASE_URL: url });
    const auth = { authorization: `Bearer ${first.token}` };
    const listPath = `/api/customers?sort=${q(['name', 'ASC'])}&range=${q([0, 24])}&filter=${q({})}`;
    await expectOk(`${app.url}${listPath}`, auth);

    figures.push(
      ...(await listThroughput(
        options,
        { app, bare, postgresPid: postgres.postmasterPid },
        firstCompany,
        auth,
        listPath,
      )),
    );

    const searchPath = `/api/customers?sort=${q(['name', 'ASC'])}&range=${q([0, 24])}&filter=${q({ q: searchTerm })}`;
    const matches = await totalOf(`${app.url}${searchPath}`, auth);
    const search = await sequential(`${app.url}${searchPath}`, auth, 200);
    const naive = await sequential(
      `${bare.url}/search/${firstCompany.companyId}?q=${searchTerm}`,
      {},
      30,
    );
    figures.push(
      figure(
        SECTION,
        `search "${searchTerm}" (${matches.toLocaleString('en-US')} matches) p99`,
        search.p99,
        'ms',
        {
          baseline: { name: "naive ILIKE '%term%' by name", value: naive.p99 },
          target: { text: 'p99 ≤ 100 ms', met: search.p99 <= 100 },
          note: `p50 ${search.p50.toFixed(1)} ms (naive ${naive.p50.toFixed(1)} ms), one request at a time, exact total included`,
        },
      ),
    );

    const start = perCompany - 25;
    const lastPath = `/api/customers?sort=${q(['name', 'ASC'])}&range=${q([start, perCompany - 1])}&filter=${q({})}`;
    const last = await sequential(`${app.url}${lastPath}`, auth, 200);
    const offset = await sequential(
      `${bare.url}/offset/${firstCompany.companyId}?offset=${start}`,
      {},
      50,
    );
    figures.push(
      figure(
        SECTION,
        `last page of ${perCompany.toLocaleString('en-US')} customers p99`,
        last.p99,
        'ms',
        {
          baseline: { name: 'plain OFFSET', value: offset.p99 },
          target: { text: 'p99 ≤ 100 ms', met: last.p99 <= 100 },
          note: `p50 ${last.p50.toFixed(1)} ms (OFFSET ${offset.p50.toFixed(1)} ms)`,
        },
      ),
    );

    figures.push(...(await exportFigures(app, bare, firstCompany, auth)));
    figures.push(await exportHeapFigure(url, firstCompany));

    const asOfPath = `/api/customers/${seeded.longStream.customerId}?asOf=${new Date().toISOString()}`;
    await expectOk(`${app.url}${asOfPath}`, auth);
    const asOf = await sequential(`${app.url}${asOfPath}`, auth, 300);
    const readOnly = await sequential(
      `${bare.url}/events/Customer-${seeded.longStream.customerId}`,
      {},
      300,
    );
    figures.push(
      figure(
        SECTION,
        `as-of replay of ${LONG_STREAM_EVENTS.toLocaleString('en-US')} events p99`,
        asOf.p99,
        'ms',
        {
          baseline: { name: 'read the events only', value: readOnly.p99 },
          target: { text: 'p99 ≤ 20 ms', met: asOf.p99 <= 20 },
          note: `p50 ${asOf.p50.toFixed(1)} ms (read only ${readOnly.p50.toFixed(1)} ms)`,
        },
      ),
    );
  } finally {
    await bare?.stop();
    await app.stop();
  }
  return figures;
}

const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

async function companiesOf(
  pool: import('pg').Pool,
  users: readonly { userId: string }[],
): Promise<SeedCompany[]> {
  const { rows } = await pool.query<{ user_id: string; company_id: string }>(
    'SELECT user_id, company_id FROM users WHERE user_id = ANY($1)',
    [users.map((user) => user.userId)],
  );
  const byUser = new Map(rows.map((row) => [row.user_id, row.company_id]));
  return users.map((user) => ({ userId: user.userId, companyId: byUser.get(user.userId) ?? '' }));
}

/** What the operator's verify command appends, written through the store. */
async function verify(pool: import('pg').Pool, companies: readonly SeedCompany[]) {
  const store = new PostgresEventStore(pool);
  for (const { companyId } of companies) {
    await store.appendToStream(
      `Company-${companyId}`,
      [
        {
          id: crypto.randomUUID(),
          type: 'CompanyVerified',
          data: { companyId, verifiedBy: 'bench', verifiedAt: new Date().toISOString() },
          metadata: {
            companyId,
            userId: null,
            correlationId: crypto.randomUUID(),
            causationId: null,
            occurredAt: new Date().toISOString(),
            schemaVersion: 1,
          },
        },
      ],
      { expectedRevision: 'stream_exists' },
    );
  }
}

async function expectOk(url: string, headers: Record<string, string>) {
  const res = await fetch(url, { headers });
  if (!res.ok)
    throw new Error(`${url} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  await res.arrayBuffer();
}

async function totalOf(url: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  return Number(res.headers.get('content-range')?.split('/').pop());
}

/** One request at a time: latency without queueing. */
async function sequential(url: string, headers: Record<string, string>, count: number) {
  for (let i = 0; i < 3; i += 1) await expectOk(url, headers);
  const latencies: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  }
  return summarize(latencies);
}

async function listThroughput(
  options: BenchOptions,
  { app, bare, postgresPid }: { app: AppProcess; bare: ChildServer; postgresPid: number },
  company: SeedCompany,
  auth: Record<string, string>,
  listPath: string,
): Promise<Figure[]> {
  const targets = {
    app: { url: `${app.url}${listPath}`, method: 'GET' as const, headers: auth },
    bare: { url: `${bare.url}/list/${company.companyId}`, method: 'GET' as const },
  };
  const runs: Record<keyof typeof targets, LoadRun[]> = { app: [], bare: [] };
  for (const name of ['app', 'bare'] as const) {
    await runLoad({ ...targets[name], connections: CONNECTIONS, durationSeconds: 2 });
  }
  const seconds = Math.max(1, Math.round(options.httpSeconds / ROUNDS));
  const pids = { app: app.pid, bare: bare.pid };
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const name of ['app', 'bare'] as const) {
      runs[name].push(
        await runLoad(
          { ...targets[name], connections: CONNECTIONS, durationSeconds: seconds },
          { server: pids[name], postgres: postgresPid, loadgen: 'self' },
        ),
      );
    }
  }
  const measured = { app: combineLoad(runs.app), bare: combineLoad(runs.bare) };
  const cpu = `CPU ms per answer: app ${cpuPerAnswer(measured.app)}; bare ${cpuPerAnswer(measured.bare)}`;
  console.error(
    `  list: app ${Math.round(measured.app.okPerSecond)}/s p99 ${measured.app.p99Ms} ms; bare ${Math.round(measured.bare.okPerSecond)}/s p99 ${measured.bare.p99Ms} ms; ${cpu}`,
  );
  const { app: real, bare: base } = measured;
  return [
    figure(
      SECTION,
      `list page of 25 + exact total, ${CONNECTIONS} connections`,
      real.okPerSecond,
      '/s',
      {
        baseline: { name: 'bare Hono + pg page', value: base.okPerSecond },
        target: { text: '≥ 3,000/s', met: real.okPerSecond >= 3_000 },
        note: `non-2xx ${real.non2xx}, errors ${real.errors}; ${cpu}`,
      },
    ),
    figure(SECTION, `list page p99, ${CONNECTIONS} connections`, real.p99Ms, 'ms', {
      baseline: { name: 'bare Hono + pg page', value: base.p99Ms },
      target: { text: 'p99 ≤ 25 ms', met: real.p99Ms <= 25 },
    }),
  ];
}

/** "server 0.21, postgres 0.10": the metered components' CPU per successful answer. */
function cpuPerAnswer(result: LoadResult): string {
  return Object.entries(result.cpuMsPerOk)
    .filter(([name]) => name !== 'loadgen')
    .map(([name, ms]) => `${name} ${ms.toFixed(2)}`)
    .join(', ');
}

/** Resident memory of a process now (kB), from /proc. */
function rssKb(pid: number): number {
  const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0);
}

async function timedDownload(url: string, headers: Record<string, string>, pid: number) {
  const before = rssKb(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssKb(pid));
  }, 20);
  const started = performance.now();
  let bytes = 0;
  let lines = 0;
  try {
    const res = await fetch(url, { headers });
    if (!res.ok || !res.body) throw new Error(`${url} answered ${res.status}`);
    const reader = res.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      bytes += chunk.value.byteLength;
      for (const byte of chunk.value) if (byte === 10) lines += 1;
    }
  } finally {
    clearInterval(sampler);
  }
  return {
    ms: performance.now() - started,
    bytes,
    lines,
    growthMb: (peak - before) / 1024,
    peakMb: peak / 1024,
  };
}

/**
 * The export's pipeline in a process of its own with a garbage collection before each sample
 * (bench/probes/exportHeap.ts): the heap still in use at the first sample and at the last row. RSS
 * alone cannot tell rows held from garbage V8 has not collected yet.
 */
async function exportHeapFigure(url: string, company: SeedCompany): Promise<Figure> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', 'bench/probes/exportHeap.ts', url, company.companyId],
    { maxBuffer: 1 << 20 },
  );
  const { rows, samples } = JSON.parse(stdout) as {
    rows: number;
    samples: { rows: number; heapMb: number }[];
  };
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last) throw new Error(`the export probe sampled nothing (${rows} rows)`);
  const peak = Math.max(...samples.map((sample) => sample.heapMb));
  console.error(
    `  export heap after GC: ${samples.map((s) => `${s.rows}: ${s.heapMb.toFixed(1)} MB`).join(', ')}`,
  );
  return figure(
    SECTION,
    `CSV export, heap in use after GC at ${last.rows.toLocaleString('en-US')} rows`,
    last.heapMb,
    'MB',
    {
      baseline: {
        name: `the same at ${first.rows.toLocaleString('en-US')} rows`,
        value: first.heapMb,
      },
      note: `highest of ${samples.length} samples (every 10,000 rows and the last): ${peak.toFixed(1)} MB; flat means no row is held once written`,
    },
  );
}

async function exportFigures(
  app: AppProcess,
  bare: ChildServer,
  company: SeedCompany,
  auth: Record<string, string>,
): Promise<Figure[]> {
  // A seventh of the rows first: if the export streams, the memory it takes does not grow with
  // the number of rows.
  const seventh = q({ investorStatus: ['Registered with the product'] });
  const part = await timedDownload(
    `${app.url}/api/customers/export.csv?filter=${seventh}`,
    auth,
    app.pid,
  );
  const real = await timedDownload(`${app.url}/api/customers/export.csv`, auth, app.pid);
  const naive = await timedDownload(`${bare.url}/export/${company.companyId}`, {}, bare.pid);
  console.error(
    `  export: app ${real.ms.toFixed(0)} ms, ${real.lines} lines, +${real.growthMb.toFixed(0)} MB (${part.lines} lines: +${part.growthMb.toFixed(0)} MB); naive ${naive.ms.toFixed(0)} ms, +${naive.growthMb.toFixed(0)} MB`,
  );
  const rows = (real.lines - 1).toLocaleString('en-US');
  const partRows = (part.lines - 1).toLocaleString('en-US');
  return [
    figure(SECTION, `CSV export of ${rows} customers, time`, real.ms, 'ms', {
      baseline: { name: 'all rows in memory, then CSV', value: naive.ms },
      note: `${(real.bytes / 1e6).toFixed(1)} MB streamed`,
    }),
    figure(SECTION, 'CSV export, app memory growth (peak RSS − before)', real.growthMb, 'MB', {
      baseline: { name: 'all rows in memory, then CSV', value: naive.growthMb },
      note: `app peak RSS ${real.peakMb.toFixed(0)} MB; the naive server's ${naive.peakMb.toFixed(0)} MB; exporting ${partRows} rows first grew it ${part.growthMb.toFixed(0)} MB`,
    }),
  ];
}
