import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type pg from 'pg';
import { type AppProcess, registerUsers, startApp } from '../lib/appProcess';
import { rebuildAfterBulkLoad } from '../lib/bulkRebuild';
import { type ChildServer, startChildServer } from '../lib/child';
import { bulkLoadCustomers, searchTerm } from '../lib/customerHistory';
import { q, sequential, totalOf } from '../lib/httpTimings';
import { combineLoad, type LoadResult, type LoadRun, runLoad } from '../lib/load';
import type { BenchOptions } from '../lib/options';
import {
  bulkLoadPayments,
  type PaymentSeedCompany,
  type SeededPayments,
} from '../lib/paymentHistory';
import { benchPostgres, withPool } from '../lib/postgres';
import { type Figure, figure, notMeasured } from '../lib/report';
import {
  type BenchCompany,
  companiesOf,
  registerTerminals,
  verifyCompanies,
} from '../lib/seedCompanies';
import { summarize } from '../lib/stats';

const SECTION = 'payments';
const CONNECTIONS = 50;
const ROUNDS = 3;
const CUSTOMERS = 2_000;
/** Concurrent clients taking payments end to end, one level after the other. */
const CLIENT_LEVELS = [1, 4, 16];
/** How long a payment may take from its request to its row in the list before it counts as lost. */
const PAYMENT_TIMEOUT_MS = 15_000;
const sortNewest = q(['createdAt', 'DESC']);

/**
 * Seeds `--transactions` money movements (default 1,000,000) in one company as payment events
 * (bench/lib/paymentHistory.ts; a second company gets a hundredth as many), rebuilds every read model
 * from them, then measures on the real app, beside plain baselines on the same tables
 * (bench/servers/barePayments.ts): the transactions list's first page at 50 connections, a search
 * and the last page; the balance now and as of the middle of the history; and last, payments
 * taken end to end through the terminal simulator at a few concurrent clients.
 */
export async function benchPayments(options: BenchOptions): Promise<Figure[]> {
  const postgres = await benchPostgres();
  const url = await postgres.createDatabase('bench_payments');
  const env = { TOKEN_SECRET: randomBytes(48).toString('base64url'), LOG_LEVEL: 'warn' };

  // Real registrations and terminals over HTTP, then verification and the history straight into
  // the store, then a rebuild of every read model the app keeps.
  let app: AppProcess = await startApp(url, env);
  const users = await registerUsers(app.url, 2);
  const companies = await withPool(url, 2, (pool) => companiesOf(pool, users));
  const [big, other] = companies;
  if (!big || !other) throw new Error('no company registered');
  const terminals = [
    await registerTerminals(app.url, big.token, 3),
    await registerTerminals(app.url, other.token, 1),
  ];
  await app.stop();
  const seeded = await withPool(url, 4, (pool) =>
    seed(pool, options.transactions, [big, other], terminals),
  );
  const rebuilt = await withPool(url, 8, async (pool) => {
    const result = await rebuildAfterBulkLoad(pool, [
      'payments',
      'money_transactions',
      'ledger_lines',
      'money_counts',
    ]);
    const { rows } = await pool.query<{ lines: string }>(
      'SELECT count(*) AS lines FROM ledger_lines WHERE company_id = $1',
      [big.companyId],
    );
    return { ...result, ledgerLines: Number(rows[0]?.lines ?? 0) };
  });
  console.error(
    `  rebuild: ${rebuilt.events.toLocaleString('en-US')} events in ${rebuilt.seconds.toFixed(1)} s (${Math.round(rebuilt.eventsPerSecond)}/s)`,
  );
  const transactions = seeded.transactions.get(big.companyId) ?? 0;
  const figures: Figure[] = [
    figure(
      SECTION,
      `rebuild of ${rebuilt.events.toLocaleString('en-US')} events`,
      rebuilt.eventsPerSecond,
      'events/s',
      {
        note: `${seeded.payments.toLocaleString('en-US')} payments as ${seeded.events.toLocaleString('en-US')} events bulk-loaded in ${seeded.seconds.toFixed(0)} s, every read model rebuilt in ${rebuilt.seconds.toFixed(0)} s`,
      },
    ),
  ];

  let bare: ChildServer | undefined;
  try {
    app = await startApp(url, env);
    bare = await startChildServer('barePayments.ts', { DATABASE_URL: url });
    const auth = { authorization: `Bearer ${big.token}` };
    figures.push(
      ...(await listFigures(options, app, bare, big, auth, transactions, postgres.postmasterPid)),
    );
    figures.push(...(await balanceFigures(app, bare, big, auth, seeded, rebuilt.ledgerLines)));
    figures.push(...(await endToEndFigures(options, app, big, terminals[0] ?? [])));
  } finally {
    await bare?.stop();
    await app.stop();
  }
  return figures;
}

export async function seed(
  pool: pg.Pool,
  transactions: number,
  [big, other]: BenchCompany[],
  [bigTerminals, otherTerminals]: string[][],
): Promise<SeededPayments> {
  if (!big || !other) throw new Error('two companies expected');
  await verifyCompanies(pool, [big, other]);
  await bulkLoadCustomers(pool, [big], CUSTOMERS, 1, () => {});
  const { rows } = await pool.query<{ id: string }>(
    `SELECT data->>'customerId' AS id FROM es_events WHERE type = 'CustomerAdded' ORDER BY position`,
  );
  const plan: PaymentSeedCompany[] = [
    {
      ...big,
      terminalIds: bigTerminals ?? [],
      customerIds: rows.map((row) => row.id),
      transactions,
    },
    {
      ...other,
      terminalIds: otherTerminals ?? [],
      customerIds: [],
      transactions: Math.ceil(transactions / 100),
    },
  ];
  const seeded = await bulkLoadPayments(pool, plan, (n) =>
    console.error(`  stored ${n.toLocaleString('en-US')} payments`),
  );
  console.error(
    `  stored ${seeded.payments.toLocaleString('en-US')} payments as ${seeded.events.toLocaleString('en-US')} events in ${seeded.seconds.toFixed(1)} s`,
  );
  return seeded;
}

const listPath = (range: [number, number], filter: object = {}) =>
  `/api/transactions?sort=${sortNewest}&range=${q(range)}&filter=${q(filter)}`;

export async function listFigures(
  options: BenchOptions,
  app: AppProcess,
  bare: ChildServer,
  company: BenchCompany,
  auth: Record<string, string>,
  seededTransactions: number,
  /** The postmaster, to meter PostgreSQL's CPU beside the servers'. */
  postgresPid?: number,
): Promise<Figure[]> {
  const firstPage = listPath([0, 24]);
  const total = await totalOf(`${app.url}${firstPage}`, auth);
  if (total !== seededTransactions)
    throw new Error(`the list counts ${total} transactions, ${seededTransactions} were seeded`);
  const figures = await firstPageThroughput(
    { options, app, bare, company, auth, postgresPid },
    firstPage,
  );
  const count = total.toLocaleString('en-US');

  const searchPath = listPath([0, 24], { q: searchTerm });
  const matches = await totalOf(`${app.url}${searchPath}`, auth);
  const search = await sequential(`${app.url}${searchPath}`, auth, 200);
  const naive = await sequential(`${bare.url}/search/${company.companyId}?q=${searchTerm}`, {}, 20);
  figures.push(
    figure(
      SECTION,
      `search "${searchTerm}" in ${count} (${matches.toLocaleString('en-US')} matches) p99`,
      search.p99,
      'ms',
      {
        baseline: { name: "naive ILIKE '%term%' on the rows", value: naive.p99 },
        target: { text: 'p99 ≤ 100 ms', met: search.p99 <= 100 },
        note: `p50 ${search.p50.toFixed(1)} ms (naive ${naive.p50.toFixed(1)} ms), one request at a time, exact total and net sum included; the term matches customer names`,
      },
    ),
  );

  const start = total - 25;
  const last = await sequential(`${app.url}${listPath([start, total - 1])}`, auth, 200);
  const offset = await sequential(
    `${bare.url}/offset/${company.companyId}?offset=${start}`,
    {},
    20,
  );
  figures.push(
    figure(SECTION, `last page of ${count} transactions p99`, last.p99, 'ms', {
      baseline: { name: 'plain OFFSET', value: offset.p99 },
      target: { text: 'p99 ≤ 100 ms', met: last.p99 <= 100 },
      note: `p50 ${last.p50.toFixed(1)} ms (OFFSET ${offset.p50.toFixed(1)} ms), one request at a time, exact total included`,
    }),
  );
  return figures;
}

async function firstPageThroughput(
  {
    options,
    app,
    bare,
    company,
    auth,
    postgresPid,
  }: {
    options: BenchOptions;
    app: AppProcess;
    bare: ChildServer;
    company: BenchCompany;
    auth: Record<string, string>;
    postgresPid: number | undefined;
  },
  path: string,
): Promise<Figure[]> {
  const targets = {
    app: { url: `${app.url}${path}`, method: 'GET' as const, headers: auth },
    bare: { url: `${bare.url}/list/${company.companyId}`, method: 'GET' as const },
  };
  const postgres: Record<string, number> =
    postgresPid === undefined ? {} : { postgres: postgresPid };
  const meters: Record<keyof typeof targets, Record<string, number>> = {
    app: { server: app.pid, ...postgres },
    bare: { server: bare.pid, ...postgres },
  };
  const runs: Record<keyof typeof targets, LoadRun[]> = { app: [], bare: [] };
  for (const name of ['app', 'bare'] as const) {
    await runLoad({ ...targets[name], connections: CONNECTIONS, durationSeconds: 2 });
  }
  const seconds = Math.max(1, Math.round(options.httpSeconds / ROUNDS));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const name of ['app', 'bare'] as const) {
      runs[name].push(
        await runLoad(
          { ...targets[name], connections: CONNECTIONS, durationSeconds: seconds },
          meters[name],
        ),
      );
    }
  }
  const real = combineLoad(runs.app);
  const base = combineLoad(runs.bare);
  // One at a time too: what a request costs without 50 of them queueing for two cores.
  const alone = await sequential(targets.app.url, auth, 200);
  const bareAlone = await sequential(targets.bare.url, {}, 200);
  console.error(
    `  first page: app ${Math.round(real.okPerSecond)}/s p99 ${real.p99Ms} ms (${cpuText(real)}); bare ${Math.round(base.okPerSecond)}/s p99 ${base.p99Ms} ms (${cpuText(base)})`,
  );
  const ratio = base.okPerSecond > 0 ? real.okPerSecond / base.okPerSecond : 0;
  return [
    figure(
      SECTION,
      `transactions first page of 25 + exact total, ${CONNECTIONS} connections`,
      real.okPerSecond,
      '/s',
      {
        baseline: { name: 'bare Hono + pg page (no total, no auth)', value: base.okPerSecond },
        target: { text: '≥ 0.8× bare', met: ratio >= 0.8 },
        note: `non-2xx ${real.non2xx}, errors ${real.errors}; CPU ms per answer: app ${cpuText(real)}, bare ${cpuText(base)}; one request at a time: p50 ${alone.p50.toFixed(2)} ms, p99 ${alone.p99.toFixed(1)} ms (bare p50 ${bareAlone.p50.toFixed(2)} ms, p99 ${bareAlone.p99.toFixed(1)} ms)`,
      },
    ),
    figure(SECTION, `transactions first page p99, ${CONNECTIONS} connections`, real.p99Ms, 'ms', {
      baseline: { name: 'bare Hono + pg page', value: base.p99Ms },
    }),
  ];
}

export /** `server 0.41 + postgres 0.12 = 0.53`: CPU ms per successful answer, by component. */
function cpuText(result: LoadResult): string {
  const parts = Object.entries(result.cpuMsPerOk);
  const total = parts.reduce((sum, [, ms]) => sum + ms, 0);
  return `${parts.map(([name, ms]) => `${name} ${ms.toFixed(2)}`).join(' + ')} = ${total.toFixed(2)}`;
}

async function balanceFigures(
  app: AppProcess,
  bare: ChildServer,
  company: BenchCompany,
  auth: Record<string, string>,
  seeded: SeededPayments,
  ledgerLines: number,
): Promise<Figure[]> {
  const lastAt = seeded.lastCaptureAt.get(company.companyId) ?? seeded.firstCaptureAt;
  const middle = new Date((seeded.firstCaptureAt.getTime() + lastAt.getTime()) / 2).toISOString();
  const figures: Figure[] = [];
  for (const asOf of [undefined, middle]) {
    const query = asOf === undefined ? '' : `?asOf=${encodeURIComponent(asOf)}`;
    const now = await balanceOf(`${app.url}/api/balance${query}`, auth);
    const naiveNow = await balanceOf(`${bare.url}/balance/${company.companyId}${query}`, {});
    if (now !== naiveNow)
      throw new Error(`GET /api/balance${query} says ${now}, the ledger lines sum to ${naiveNow}`);
    const real = await sequential(`${app.url}/api/balance${query}`, auth, 300);
    const naive = await sequential(`${bare.url}/balance/${company.companyId}${query}`, {}, 30);
    const name =
      asOf === undefined ? 'GET /api/balance' : `GET /api/balance?asOf=${asOf.slice(0, 10)}`;
    figures.push(
      figure(
        SECTION,
        `${name}, ${ledgerLines.toLocaleString('en-US')} ledger lines, p99`,
        real.p99,
        'ms',
        {
          baseline: { name: 'sum of the ledger lines', value: naive.p99 },
          target: { text: 'p99 ≤ 20 ms', met: real.p99 <= 20 },
          note: `p50 ${real.p50.toFixed(2)} ms (sum ${naive.p50.toFixed(1)} ms), one request at a time; ${(now / 100).toLocaleString('en-US')} CAD, as the lines sum`,
        },
      ),
    );
  }
  return figures;
}

async function balanceOf(url: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, { headers });
  const body = (await res.json()) as { availableCents?: number };
  if (!res.ok || typeof body.availableCents !== 'number')
    throw new Error(`${url} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body.availableCents;
}

/**
 * Payments taken as a till would: POST /api/payments, the card presented on the terminal
 * simulator, then GET /api/transactions polled (every 5 ms) until the captured payment is a row
 * of the list. The simulator signs a webhook to the app, which records the capture; the money
 * read model makes it a transaction. Each client waits for its payment before the next.
 */
async function endToEndFigures(
  options: BenchOptions,
  app: AppProcess,
  company: BenchCompany,
  terminalIds: readonly string[],
): Promise<Figure[]> {
  const auth = { authorization: `Bearer ${company.token}` };
  const probe = await fetch(`${app.url}/api/terminals/${terminalIds[0]}/simulator`, {
    headers: auth,
  });
  await probe.arrayBuffer();
  if (probe.status === 404)
    return [
      notMeasured(SECTION, 'payments end to end', 'the terminal simulator is not the gateway'),
    ];
  const seconds = Math.max(3, options.httpSeconds);
  const figures: Figure[] = [];
  for (const clients of CLIENT_LEVELS) {
    const run = await takePayments(app.url, auth, terminalIds, clients, 2);
    if (run.lost.length > 0) throw new Error(`warm-up: ${run.lost[0]}`);
    const measured = await takePayments(app.url, auth, terminalIds, clients, seconds);
    const latency = summarize(measured.latencies.map((parts) => parts.total));
    const part = (key: keyof PaymentTimes) =>
      summarize(measured.latencies.map((parts) => parts[key])).p50.toFixed(0);
    const perSecond = measured.latencies.length / measured.seconds;
    const plural = clients === 1 ? '' : 's';
    console.error(
      `  end to end, ${clients} client${plural}: ${perSecond.toFixed(1)}/s, p50 ${latency.p50.toFixed(0)} ms, p99 ${latency.p99.toFixed(0)} ms, failed ${measured.lost.length}`,
    );
    figures.push(
      figure(SECTION, `payments end to end, ${clients} client${plural}`, perSecond, '/s', {
        note: `${measured.latencies.length} payments in ${measured.seconds.toFixed(1)} s, ${measured.lost.length} failed${measured.lost[0] ? ` (${measured.lost[0]})` : ''}`,
        detail: { p50Ms: latency.p50, p99Ms: latency.p99, failed: measured.lost.length },
      }),
      figure(SECTION, `payment end to end p99, ${clients} client${plural}`, latency.p99, 'ms', {
        note: `p50 ${latency.p50.toFixed(0)} ms: POST /api/payments ${part('requested')} ms, present-card ${part('presented')} ms, then until the row is listed ${part('listed')} ms (p50 of each)`,
      }),
    );
  }
  return figures;
}

async function takePayments(
  url: string,
  auth: Record<string, string>,
  terminalIds: readonly string[],
  clients: number,
  seconds: number,
) {
  const latencies: PaymentTimes[] = [];
  const lost: string[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const client = async (index: number) => {
    const terminalId = terminalIds[index % terminalIds.length] ?? '';
    while (performance.now() < deadline) {
      try {
        latencies.push(await onePayment(url, auth, terminalId, index));
      } catch (error) {
        lost.push(error instanceof Error ? error.message : String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, index) => client(index)));
  return { latencies, lost, seconds: (performance.now() - started) / 1000 };
}

/** Milliseconds: the whole payment and its three steps. */
interface PaymentTimes {
  total: number;
  requested: number;
  presented: number;
  listed: number;
}

async function onePayment(
  url: string,
  auth: Record<string, string>,
  terminalId: string,
  client: number,
): Promise<PaymentTimes> {
  const began = performance.now();
  const headers = { ...auth, 'content-type': 'application/json' };
  const created = await fetch(`${url}/api/payments`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      terminalId,
      amountCents: 1_000 + client,
      currency: 'CAD',
      description: 'Bench till',
    }),
  });
  const payment = (await created.json()) as { id?: string };
  if (created.status !== 201 || !payment.id)
    throw new Error(`POST /api/payments answered ${created.status}`);
  const requestedAt = performance.now();
  const presented = await fetch(`${url}/api/terminals/${terminalId}/simulator/present-card`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ paymentId: payment.id }),
  });
  await presented.arrayBuffer();
  if (presented.status !== 202) throw new Error(`present-card answered ${presented.status}`);
  const presentedAt = performance.now();
  const listed = `${url}${listPath([0, 0], { id: [payment.id] })}`;
  const deadline = performance.now() + PAYMENT_TIMEOUT_MS;
  for (;;) {
    const res = await fetch(listed, { headers: auth });
    const rows = (await res.json()) as { id: string; kind: string }[];
    if (!res.ok) throw new Error(`GET /api/transactions answered ${res.status}`);
    if (rows.some((row) => row.id === payment.id && row.kind === 'payment')) {
      const now = performance.now();
      return {
        total: now - began,
        requested: requestedAt - began,
        presented: presentedAt - requestedAt,
        listed: now - presentedAt,
      };
    }
    if (performance.now() > deadline)
      throw new Error(`payment not in the list after ${PAYMENT_TIMEOUT_MS} ms`);
    await delay(5);
  }
}
