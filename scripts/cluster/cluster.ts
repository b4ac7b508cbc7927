import { parseArgs } from 'node:util';
import { faultRun } from './faultRun';
import { Cluster, topology } from './topology';

const usage = `usage: npm run cluster -- start|stop|status|test [--short] [--base-port 32000] [--kafka-port 29400] [--state-dir DIR]
  start   PostgreSQL, a Kafka broker, two APIs (PROJECTORS=external), two projections processes, nginx
  stop    stops what start started (by the pids it recorded)
  status  each part up or down, and /api/health through nginx
  test    start, the load with its faults, the checks (one line each, then "N passed, N failed"), stop`;

/** `npm run cluster -- …`: the scale-out topology on this machine (see README, "Running in production"). */
async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      short: { type: 'boolean', default: false },
      'base-port': { type: 'string', default: '32000' },
      'kafka-port': { type: 'string', default: '29400' },
      'state-dir': { type: 'string' },
    },
  });
  const t = topology({
    basePort: Number(values['base-port']),
    kafkaPort: Number(values['kafka-port']),
    stateDir: values['state-dir'],
  });
  const cluster = new Cluster(t);
  const log = (line: string) => console.log(line);
  switch (positionals[0]) {
    case 'start':
      await cluster.start(log);
      log(`Issuer Portal through nginx: http://127.0.0.1:${t.nginxPort}/`);
      return 0;
    case 'stop':
      await cluster.stop(log);
      return 0;
    case 'status':
      for (const line of await cluster.status()) log(line);
      return 0;
    case 'test':
      return (await faultRun(cluster, { short: values.short, log })).passed ? 0 : 1;
    default:
      console.error(usage);
      return 2;
  }
}

process.exitCode = await main();
