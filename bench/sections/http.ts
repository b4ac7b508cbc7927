import { cpus } from 'node:os';
import { type AppProcess, registerUsers, startApp, userUpdateBody } from '../lib/appProcess';
import { type ChildServer, startChildServer } from '../lib/child';
import { WriteTransactionCounter } from '../lib/dbStats';
import { combineLoad, type LoadOptions, type LoadResult, type LoadRun, runLoad } from '../lib/load';
import type { BenchOptions } from '../lib/options';
import { benchPostgres, withPool } from '../lib/postgres';
import { type Figure, figure } from '../lib/report';

const SECTION = 'http';
const CONNECTIONS = 50;
const WARMUP_SECONDS = 2;
/** The targets take turns, so load from elsewhere on the machine hits each about equally. */
const ROUNDS = 3;
const TARGET_PER_SECOND = 3_000;
const TARGET_P99_MS = 25;
const TARGET_RATIO = 0.8;

type Target = Omit<LoadOptions, 'connections' | 'durationSeconds'>;
/** Hello world, the bare command, the bare command writing the read models' rows inline, the app. */
const names = ['hello', 'bare', 'bareRows', 'app'] as const;
type Name = (typeof names)[number];
type Measured = LoadResult & { transactionsPerOk: number };

/**
 * Three servers, each in its own process, loaded from this one with autocannon at 50
 * connections: hello-world Hono, bare Hono + pg (read a 10-event stream, append one event; and,
 * for information, the same writing the read models' rows inline in the append's statement), and
 * the real app (api/src/main.ts on a bench database) answering `POST /api/auth/user/update`.
 * Each connection acts for its own stream (its own user and token for the app), so no two
 * in-flight requests race for one stream.
 */
export async function benchHttp(options: BenchOptions): Promise<Figure[]> {
  const postgres = await benchPostgres();
  const bareUrl = await postgres.createDatabase('bench_http_bare');
  await seedBareTable(bareUrl);
  const appUrl = await postgres.createDatabase('bench_http_app');

  const servers: { stop(): Promise<void> }[] = [];
  try {
    const hello: ChildServer = await startChildServer('hello.ts', {});
    servers.push(hello);
    const bare: ChildServer = await startChildServer('barePg.ts', { DATABASE_URL: bareUrl });
    servers.push(bare);
    const app: AppProcess = await startApp(appUrl);
    servers.push(app);
    const users = await registerUsers(app.url, CONNECTIONS);
    console.error(`  app up; registered ${users.length} companies, one user and token each`);

    const targets: Record<Name, Target> = {
      hello: { url: `${hello.url}/hello`, method: 'GET' },
      bare: {
        url: `${bare.url}/bare/s0`,
        method: 'POST',
        body: JSON.stringify({ settings: { theme: 'dark', counter: 1 }, shortcuts: ['mail'] }),
        perConnection: (index) => ({ path: `/bare/s${index}` }),
      },
      bareRows: {
        url: `${bare.url}/bare-with-rows/s0`,
        method: 'POST',
        body: JSON.stringify({ settings: { theme: 'dark', counter: 1 }, shortcuts: ['mail'] }),
        perConnection: (index) => ({ path: `/bare-with-rows/s${index}` }),
      },
      app: {
        url: `${app.url}/api/auth/user/update`,
        method: 'POST',
        body: userUpdateBody(1),
        perConnection: (index) => ({
          headers: { authorization: `Bearer ${users[index % users.length]?.token ?? ''}` },
        }),
      },
    };
    const pids = { hello: hello.pid, bare: bare.pid, bareRows: bare.pid, app: app.pid };
    const meter = (name: Name) => ({
      server: pids[name],
      postgres: postgres.postmasterPid,
      loadgen: 'self' as const,
    });
    const runs: Record<Name, LoadRun[]> = { hello: [], bare: [], bareRows: [], app: [] };
    const transactions: Record<Name, number> = { hello: 0, bare: 0, bareRows: 0, app: 0 };
    const counter = await WriteTransactionCounter.open(postgres.adminUrl);
    try {
      for (const name of names)
        await runLoad({
          ...targets[name],
          connections: CONNECTIONS,
          durationSeconds: WARMUP_SECONDS,
        });
      for (let round = 0; round < ROUNDS; round += 1)
        for (const name of names) {
          const before = await counter.next();
          runs[name].push(
            await runLoad(
              {
                ...targets[name],
                connections: CONNECTIONS,
                durationSeconds: Math.max(1, Math.round(options.httpSeconds / ROUNDS)),
              },
              meter(name),
            ),
          );
          transactions[name] += (await counter.next()) - before;
        }
    } finally {
      await counter.close();
    }
    const measured = (name: Name): Measured => {
      const result = combineLoad(runs[name]);
      // Write transactions the server committed while this target ran, per successful answer.
      return { ...result, transactionsPerOk: transactions[name] / Math.max(1, result.ok) };
    };
    const [helloResult, bareResult, bareRowsResult, appResult] = names.map(measured);
    for (const [label, result] of [
      ['hello', helloResult],
      ['bare', bareResult],
      ['bare with rows', bareRowsResult],
      ['app', appResult],
    ] as const)
      console.error(
        `  ${label}: ${Math.round(result.okPerSecond)}/s ok, p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms, ${errorsText(result)}; ${cpuText(result)}`,
      );
    return compare(helloResult, bareResult, bareRowsResult, appResult);
  } finally {
    for (const server of servers.reverse()) await server.stop();
  }
}

function compare(hello: Measured, bare: Measured, bareRows: Measured, app: Measured): Figure[] {
  const rounds = `${CONNECTIONS} connections, ${ROUNDS} alternating rounds`;
  return [
    figure(SECTION, 'hello-world Hono GET', hello.okPerSecond, '/s', {
      note: `p99 ${hello.p99Ms.toFixed(1)} ms; the HTTP ceiling of this machine; ${rounds}; ${cpuText(hello)}`,
      detail: detail(hello),
    }),
    figure(SECTION, 'bare Hono + pg command', bare.okPerSecond, '/s', {
      baseline: { name: 'hello world', value: hello.okPerSecond },
      note: `p50 ${bare.p50Ms.toFixed(1)} ms, p99 ${bare.p99Ms.toFixed(1)} ms; ${errorsText(bare)}; ${cpuText(bare)}`,
      detail: detail(bare),
    }),
    figure(SECTION, 'user/update commands/s', app.okPerSecond, '/s', {
      baseline: { name: 'bare Hono + pg', value: bare.okPerSecond },
      target: {
        text: `≥ ${TARGET_PER_SECOND.toLocaleString('en-US')}/s and ≥ ${TARGET_RATIO}× bare`,
        met:
          app.okPerSecond >= TARGET_PER_SECOND &&
          app.okPerSecond >= TARGET_RATIO * bare.okPerSecond,
      },
      note: `${errorsText(app)}; ratio target alone (≥ ${TARGET_RATIO}× bare) ${app.okPerSecond >= TARGET_RATIO * bare.okPerSecond ? 'met' : 'missed'}; ${cpuText(app)}`,
      detail: detail(app),
    }),
    figure(SECTION, 'bare + read model rows inline', bareRows.okPerSecond, '/s', {
      baseline: { name: 'bare Hono + pg', value: bare.okPerSecond },
      note: `the bare command also writing the user's row and an audit row with its four running numbers in its one statement (no checkpoint, no NOTIFY): the least the command could cost with its read models written inline; p99 ${bareRows.p99Ms.toFixed(1)} ms; ${errorsText(bareRows)}; ${cpuText(bareRows)}`,
      detail: detail(bareRows),
    }),
    figure(SECTION, 'user/update against bare + rows', app.okPerSecond, '/s', {
      baseline: { name: 'bare + read model rows inline', value: bareRows.okPerSecond },
      note: `for information: the app against a baseline that writes what its read models write; CPU per answer ${cpuTotal(app).toFixed(2)} ms against ${cpuTotal(bareRows).toFixed(2)} ms (${(cpuTotal(app) / cpuTotal(bareRows)).toFixed(2)}×)`,
    }),
    figure(SECTION, 'user/update p99', app.p99Ms, 'ms', {
      baseline: { name: 'bare Hono + pg p99', value: bare.p99Ms },
      target: { text: `≤ ${TARGET_P99_MS} ms`, met: app.p99Ms <= TARGET_P99_MS },
      note: `p50 ${app.p50Ms.toFixed(1)} ms (bare ${bare.p50Ms.toFixed(1)} ms)`,
    }),
  ];
}

/** Server and PostgreSQL CPU per successful answer (the load generator's left out). */
function cpuTotal(result: Measured): number {
  return Object.entries(result.cpuMsPerOk)
    .filter(([name]) => name !== 'loadgen')
    .reduce((sum, [, ms]) => sum + ms, 0);
}

/**
 * CPU per successful answer by component, and the rate 2 cores would allow if nothing else ran:
 * steadier than throughput when other work shares the machine.
 */
function cpuText(result: Measured): string {
  const parts = Object.entries(result.cpuMsPerOk).map(([name, ms]) => `${name} ${ms.toFixed(2)}`);
  const total = Object.values(result.cpuMsPerOk).reduce((sum, ms) => sum + ms, 0);
  const ceiling = total > 0 ? Math.round((cpus().length * 1000) / total) : 0;
  const transactions =
    result.transactionsPerOk > 0
      ? `; ${result.transactionsPerOk.toFixed(1)} write transactions per answer`
      : '';
  return `CPU ms per answer: ${parts.join(', ')} (${cpus().length}-core ceiling ≈ ${ceiling.toLocaleString('en-US')}/s)${transactions}`;
}

function detail(result: Measured): Record<string, number> {
  const cpu = Object.fromEntries(
    Object.entries(result.cpuMsPerOk).map(([name, ms]) => [`cpuMsPerAnswer.${name}`, ms]),
  );
  return {
    ...cpu,
    writeTransactionsPerAnswer: result.transactionsPerOk,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
  };
}

function errorsText(result: LoadResult): string {
  const statuses = Object.entries(result.statusCounts)
    .map(([code, count]) => `${code}×${count}`)
    .join(' ');
  return `answers ${statuses || 'none'}, connection errors ${result.errors}`;
}

async function seedBareTable(url: string): Promise<void> {
  await withPool(url, 1, async (pool) => {
    await pool.query(`CREATE TABLE bare_events (
      position bigserial PRIMARY KEY, stream_id text NOT NULL, revision integer NOT NULL,
      type text NOT NULL, data jsonb NOT NULL, recorded_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (stream_id, revision))`);
    // What the command's read models write, for the route that writes it inline: the audit log's
    // table and indexes as in projections/src/readModels/audit/schema.ts, and a users table.
    await pool.query(`CREATE TABLE bare_audit (
      company_id text NOT NULL, position bigint NOT NULL, event_id text NOT NULL,
      event_type text NOT NULL, stream_id text NOT NULL, resource text NOT NULL,
      record_id text NOT NULL, actor_id text NOT NULL, at timestamptz NOT NULL,
      occurred_at timestamptz NOT NULL, reason text, details jsonb NOT NULL, n_all bigint NOT NULL,
      n_actor bigint NOT NULL, n_type bigint NOT NULL, n_record bigint NOT NULL,
      PRIMARY KEY (company_id, position));
    CREATE INDEX ON bare_audit (company_id, at, position);
    CREATE INDEX ON bare_audit (company_id, actor_id, position) INCLUDE (n_actor);
    CREATE INDEX ON bare_audit (company_id, event_type, position) INCLUDE (n_type);
    CREATE INDEX ON bare_audit (company_id, resource, record_id, position) INCLUDE (n_record);
    CREATE TABLE bare_audit_counts (
      company_id text NOT NULL, dimension text NOT NULL, value text NOT NULL,
      total bigint NOT NULL, last_position bigint NOT NULL,
      PRIMARY KEY (company_id, dimension, value));
    CREATE TABLE bare_users (id text PRIMARY KEY, data jsonb NOT NULL, updated_at timestamptz NOT NULL)`);
    // Every stream starts with the 10 events the route reads.
    await pool.query(
      `INSERT INTO bare_events (stream_id, revision, type, data)
       SELECT 's' || s, r, 'SettingsUpdated', jsonb_build_object('theme', 'dark', 'n', r)
       FROM generate_series(0, $1 - 1) AS s, generate_series(0, 9) AS r`,
      [CONNECTIONS],
    );
  });
}
