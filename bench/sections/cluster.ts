import { join } from 'node:path';
import { faultRun } from '../../scripts/cluster/faultRun';
import { Cluster, repoRoot, topology } from '../../scripts/cluster/topology';
import type { BenchOptions } from '../lib/options';
import { type Figure, figure, notMeasured } from '../lib/report';

const SECTION = 'cluster';

/**
 * The long fault run of `npm run cluster -- test` (two minutes of load with every fault), on
 * ports 32500–32580 and 32900 so a cluster started by hand on the defaults is not disturbed.
 */
export async function benchCluster(_options: BenchOptions): Promise<Figure[]> {
  const cluster = new Cluster(
    topology({ basePort: 32_500, kafkaPort: 32_900, stateDir: join(repoRoot, '.cluster-bench') }),
  );
  const run = await faultRun(cluster, { short: false, log: (line) => console.error(line) });
  const { throughput, takeoverMs } = run.faults;
  const passed = run.results.filter((result) => result.passed).length;
  return [
    throughput
      ? figure(SECTION, 'requests/s through nginx, two API processes', throughput.two, '/s', {
          baseline: { name: 'one API process, same run', value: throughput.one },
        })
      : notMeasured(SECTION, 'requests/s through nginx', 'the run failed before it'),
    takeoverMs === undefined
      ? notMeasured(SECTION, 'projections takeover after SIGKILL', 'no takeover seen')
      : figure(SECTION, 'projections takeover after SIGKILL', takeoverMs, 'ms', {
          target: { text: '≤ 5 s', met: takeoverMs <= 5_000 },
        }),
    figure(SECTION, 'share of the fault-run checks passed', passed / run.results.length, 'score', {
      target: { text: `1 (all ${run.results.length})`, met: run.passed },
      note: run.results
        .filter((result) => !result.passed)
        .map((result) => `FAIL ${result.name}`)
        .join('; '),
    }),
  ];
}
