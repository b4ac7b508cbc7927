import autocannon from 'autocannon';
import { meterCpu } from './cpu';
import { summarize } from './stats';

export interface LoadOptions {
  url: string;
  method: 'GET' | 'POST';
  connections: number;
  durationSeconds: number;
  body?: string;
  headers?: Record<string, string>;
  /** Per-connection set-up: connection `index` (0-based) gets its own path and headers. */
  perConnection?: (index: number) => { path?: string; headers?: Record<string, string> };
}

/** One or more autocannon runs against one target; `combineLoad` pools rounds. */
export interface LoadRun {
  seconds: number;
  /** Latency of every answer (ms), whatever its status. */
  latenciesMs: number[];
  statusCounts: Record<string, number>;
  /** Connection errors and timeouts. */
  errors: number;
  /** CPU ms per metered component during the run (see cpu.ts). */
  cpuMs: Record<string, number>;
}

export interface LoadResult {
  /** Successful (2xx) answers per second. */
  okPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  ok: number;
  non2xx: number;
  errors: number;
  statusCounts: Record<string, number>;
  /** CPU ms per successful answer, per metered component. */
  cpuMsPerOk: Record<string, number>;
}

/** One autocannon run, bounded by `durationSeconds`; every answer's latency is kept. */
export function runLoad(
  options: LoadOptions,
  meter: Record<string, number | 'self'> = {},
): Promise<LoadRun> {
  let nextConnection = 0;
  const perConnection = options.perConnection;
  const baseHeaders = { 'content-type': 'application/json', ...options.headers };
  const latenciesMs: number[] = [];
  const statusCounts: Record<string, number> = {};
  const cpu = meterCpu(meter);
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        method: options.method,
        connections: options.connections,
        duration: options.durationSeconds,
        timeout: 10,
        ...(options.body === undefined ? {} : { body: options.body }),
        headers: baseHeaders,
        ...(perConnection
          ? {
              setupClient: (client: autocannon.Client) => {
                const own = perConnection(nextConnection++);
                // setRequests, not setRequest: the iterator returns to requests[0] after each answer.
                client.setRequests([
                  {
                    method: options.method,
                    ...(own.path === undefined ? {} : { path: own.path }),
                    headers: { ...baseHeaders, ...own.headers },
                    ...(options.body === undefined ? {} : { body: options.body }),
                  },
                ]);
              },
            }
          : {}),
      },
      (error: unknown, result: autocannon.Result) => {
        if (error) return reject(error);
        resolve({
          seconds: result.duration,
          latenciesMs,
          statusCounts,
          errors: result.errors,
          cpuMs: cpu.read(),
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latenciesMs.push(responseTime);
      const key = String(statusCode);
      statusCounts[key] = (statusCounts[key] ?? 0) + 1;
    });
  });
}

export function combineLoad(runs: readonly LoadRun[]): LoadResult {
  const statusCounts: Record<string, number> = {};
  let ok = 0;
  let answers = 0;
  for (const run of runs)
    for (const [code, count] of Object.entries(run.statusCounts)) {
      statusCounts[code] = (statusCounts[code] ?? 0) + count;
      answers += count;
      if (code.startsWith('2')) ok += count;
    }
  const seconds = runs.reduce((total, run) => total + run.seconds, 0);
  const latency = summarize(runs.flatMap((run) => run.latenciesMs));
  const cpuMsPerOk: Record<string, number> = {};
  for (const run of runs)
    for (const [name, ms] of Object.entries(run.cpuMs))
      cpuMsPerOk[name] = (cpuMsPerOk[name] ?? 0) + ms / Math.max(1, ok);
  return {
    okPerSecond: seconds > 0 ? ok / seconds : 0,
    p50Ms: latency.p50,
    p99Ms: latency.p99,
    ok,
    non2xx: answers - ok,
    errors: runs.reduce((total, run) => total + run.errors, 0),
    statusCounts,
    cpuMsPerOk,
  };
}
