import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import { type CheckResult, runChecks } from './checks';
import { LoadClient, runLoad } from './load';
import { waitUntil } from './processes';
import {
  baseUrl,
  type Cluster,
  databaseUrl,
  operator,
  type ProjectionsName,
  projectionsNames,
} from './topology';

export interface FaultRunOptions {
  short: boolean;
  log: (line: string) => void;
}

/** Requests per second through nginx, and what did not answer 2xx (by status, or errors). */
export interface ThroughputFigures {
  two: number;
  one: number;
  /** Answers other than 2xx, by status: none is expected. */
  refused: string[];
  /** Connection errors and all requests of both runs, to hold the errors under 0.1 %. */
  errors: number;
  requests: number;
}

/** When each fault happened, for the checks (5xx only while PostgreSQL was down). */
export interface FaultLog {
  postgresDown: { from: number; to: number }[];
  apiKilled: { at: number; back: number }[];
  takeoverMs: number | undefined;
  throughput: ThroughputFigures | undefined;
}

/**
 * `npm run cluster -- test`: starts the cluster, measures throughput through nginx (two API
 * processes, then one), drives the load while the faults happen one after another, checks,
 * stops the cluster. The short version compresses the same faults into about two minutes.
 */
export interface FaultRunResult {
  passed: boolean;
  results: CheckResult[];
  faults: FaultLog;
}

export async function faultRun(
  cluster: Cluster,
  { short, log }: FaultRunOptions,
): Promise<FaultRunResult> {
  const timing = short
    ? { loadSeconds: 60, brokerDownSeconds: 15, throughputSeconds: 5, workers: 4 }
    : { loadSeconds: 120, brokerDownSeconds: 30, throughputSeconds: 15, workers: 6 };
  await cluster.stop(() => {});
  // Every run starts empty, so its checks read only its own history.
  await cluster.removeData();
  await cluster.start(log);
  const faults: FaultLog = {
    postgresDown: [],
    apiKilled: [],
    takeoverMs: undefined,
    throughput: undefined,
  };
  let results: CheckResult[] = [];
  try {
    const client = new LoadClient(baseUrl(cluster.t));
    // On an empty database the operator reaches the read models once the projectors run.
    let operatorToken: string | undefined;
    await waitUntil(
      'the operator signing in through nginx',
      async () => {
        operatorToken = await client.signIn(operator.email, operator.password);
        return operatorToken !== undefined;
      },
      180_000,
    );
    if (!operatorToken) throw new Error('the operator cannot sign in through nginx');
    faults.throughput = await measureThroughput(
      cluster,
      operatorToken,
      timing.throughputSeconds,
      log,
    );
    const loadEnds = Date.now() + timing.loadSeconds * 1000;
    log(`load for ${timing.loadSeconds} s with ${timing.workers} workers, faults meanwhile`);
    await Promise.all([
      runLoad({
        client,
        operatorToken,
        workers: timing.workers,
        until: () => Date.now() >= loadEnds,
        customersPerCompany: 8,
      }),
      nemesis(cluster, faults, timing, log),
    ]);
    log(`load done: ${client.history.length} commands`);
    results = await runChecks({ cluster, client, operatorToken, faults, log });
  } catch (error) {
    results.push({ name: 'the fault run completed', passed: false, detail: String(error) });
  } finally {
    await cluster.stop(() => {});
  }
  for (const result of results) {
    log(
      `${result.passed ? 'PASS' : 'FAIL'}  ${result.name}${result.detail ? `: ${result.detail}` : ''}`,
    );
  }
  const failed = results.filter((result) => !result.passed).length;
  log(`${results.length - failed} passed, ${failed} failed`);
  return { passed: failed === 0, results, faults };
}

/** The faults, one after another, spread over the load. */
async function nemesis(
  cluster: Cluster,
  faults: FaultLog,
  timing: { loadSeconds: number; brokerDownSeconds: number },
  log: (line: string) => void,
): Promise<void> {
  const step = (timing.loadSeconds * 1000) / 6;
  await sleep(step);
  log('fault: SIGKILL api-1, then start it again');
  const killedAt = Date.now();
  await cluster.processes.kill('api-1');
  await sleep(2_000);
  await cluster.startApi('api-1');
  faults.apiKilled.push({ at: killedAt, back: Date.now() });

  await sleep(step / 2);
  const leader = await publisherLeader(cluster);
  log(`fault: SIGKILL the leading projections process (${leader ?? 'none found'})`);
  if (leader) {
    const killedLeaderAt = Date.now();
    await cluster.processes.kill(leader);
    const other = projectionsNames.find((name) => name !== leader);
    await waitUntil(
      `${other} taking over`,
      async () => (await publisherLeader(cluster)) === other,
      60_000,
    ).catch(() => undefined);
    if ((await publisherLeader(cluster)) === other) faults.takeoverMs = Date.now() - killedLeaderAt;
    log(`  ${other} took over after ${faults.takeoverMs ?? '—'} ms`);
    cluster.startProjections(leader);
  }

  await sleep(step / 2);
  log('fault: restart PostgreSQL');
  const downFrom = Date.now();
  await cluster.stopPostgres();
  await sleep(3_000);
  await cluster.startPostgres();
  faults.postgresDown.push({ from: downFrom, to: Date.now() });

  await sleep(step / 2);
  log(`fault: stop the Kafka broker for ${timing.brokerDownSeconds} s`);
  await cluster.stopBroker();
  await sleep(timing.brokerDownSeconds * 1000);
  await cluster.startBroker();
  log('faults done');
}

/** The projections process holding the Kafka publisher's advisory lock. */
export async function publisherLeader(cluster: Cluster): Promise<ProjectionsName | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl(cluster.t) });
  try {
    await client.connect();
    const { rows } = await client.query<{ name: string }>(
      `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.classid = 7214530 AND l.granted`,
    );
    return projectionsNames.find((name) => rows.some((row) => row.name === name));
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Requests per second through nginx on one read route: with both APIs, then with api-2 stopped. */
async function measureThroughput(
  cluster: Cluster,
  token: string,
  seconds: number,
  log: (line: string) => void,
): Promise<ThroughputFigures> {
  const refused: string[] = [];
  let errors = 0;
  let requests = 0;
  /** Answers per second; what was not a 2xx is kept, by status, and errors counted. */
  const measure = async (label: string) => {
    const result = await autocannon({
      url: `${baseUrl(cluster.t)}/api/operator/companies`,
      headers: { authorization: `Bearer ${token}` },
      connections: 16,
      duration: seconds,
    });
    const statuses = (result.statusCodeStats ?? {}) as Record<string, { count: number }>;
    for (const [status, { count }] of Object.entries(statuses))
      if (!status.startsWith('2')) refused.push(`${label}: ${count} × ${status}`);
    errors += result.errors;
    requests += result.requests.total;
    return result.requests.average;
  };
  await measure('warm-up'); // both processes, at the same length as the runs
  refused.length = 0;
  errors = 0;
  requests = 0;
  const two = await measure('two');
  await cluster.processes.stop('api-2');
  await sleep(1_000);
  const one = await measure('one');
  await cluster.startApi('api-2');
  log(
    `throughput through nginx: ${Math.round(two)} requests/s with two API processes, ${Math.round(one)} with one; ${errors} connection errors in ${requests} requests${refused.length ? `; not 2xx: ${refused.join(', ')}` : ''}`,
  );
  return { two, one, refused, errors, requests };
}
