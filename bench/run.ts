import { cpus, loadavg } from 'node:os';
import { cleanupAll, installSignalHandlers } from './lib/cleanup';
import { type BenchOptions, parseOptions, type SectionName } from './lib/options';
import { configureBenchPostgres } from './lib/postgres';
import { type Figure, notMeasured, printTable, writeJson } from './lib/report';
import { benchAppends } from './sections/appends';
import { benchAudit } from './sections/audit';
import { benchBilling } from './sections/billing';
import { benchCapTable } from './sections/capTable';
import { benchCluster } from './sections/cluster';
import { benchColdStart } from './sections/coldStart';
import { benchCustomers } from './sections/customers';
import { benchFunding } from './sections/funding';
import { benchHttp } from './sections/http';
import { benchKafka } from './sections/kafka';
import { benchLag } from './sections/lag';
import { benchPayments } from './sections/payments';
import { benchRebuild } from './sections/rebuild';
import { benchUi } from './sections/ui';

/**
 * `npm run bench [-- section ...]`: measures each figure of issue 2 §7 beside a baseline taken in
 * the same run, prints one table and writes bench/results/latest.json. Progress goes to stderr,
 * the table to stdout.
 */
const sections: Record<SectionName, (options: BenchOptions) => Promise<Figure[]>> = {
  appends: benchAppends,
  http: benchHttp,
  lag: benchLag,
  rebuild: benchRebuild,
  coldstart: benchColdStart,
  customers: benchCustomers,
  ui: benchUi,
  kafka: benchKafka,
  payments: benchPayments,
  billing: benchBilling,
  audit: benchAudit,
  cluster: benchCluster,
  captable: benchCapTable,
  funding: benchFunding,
};

async function main(): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return 2;
  }
  installSignalHandlers();
  configureBenchPostgres({ synchronousCommit: options.synchronousCommit });
  const figures: Figure[] = [];
  const machineLoad: SectionLoad[] = [];
  for (const name of options.sections) {
    console.error(`\n== ${name}`);
    const started = Date.now();
    const loadBefore = loadavg()[0] ?? 0;
    try {
      figures.push(...(await sections[name](options)));
    } catch (error) {
      console.error(`${name} failed:`, error);
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      figures.push(notMeasured(name, '(section)', `failed: ${reason}`));
    }
    const seconds = (Date.now() - started) / 1000;
    machineLoad.push({ section: name, seconds, loadBefore, loadAfter: loadavg()[0] ?? 0 });
    console.error(`== ${name} took ${seconds.toFixed(1)} s`);
  }
  await cleanupAll();
  console.log(`\n${printTable(figures)}`);
  console.log(`\n${describeLoad(machineLoad)}`);
  await writeJson(options.out, figures, { ...options }, machineLoad);
  console.log(`\nResults written to ${options.out}`);
  return 0;
}

interface SectionLoad {
  section: SectionName;
  seconds: number;
  loadBefore: number;
  loadAfter: number;
}

/** Other work on this machine (tests, builds) competes for its cores and skews every figure. */
function describeLoad(loads: readonly SectionLoad[]): string {
  const cores = cpus().length;
  const lines = loads.map(
    (l) =>
      `  ${l.section}: ${l.seconds.toFixed(0)} s, 1-min load average ${l.loadBefore.toFixed(1)} before, ${l.loadAfter.toFixed(1)} after`,
  );
  const busy = loads.some((l) => l.loadBefore > cores);
  const warning = busy
    ? `Load average above the ${cores} cores before a section: other processes were competing, read the figures as noisy.`
    : `Machine: ${cores} cores.`;
  return [warning, ...lines].join('\n');
}

main().then(
  (code) => process.exit(code),
  async (error) => {
    console.error(error);
    await cleanupAll();
    process.exit(1);
  },
);
