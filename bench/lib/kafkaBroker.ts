import { readdirSync, readFileSync } from 'node:fs';

/**
 * The pid of the scripts/kafka/broker.sh broker listening on `127.0.0.1:<port>`, found through
 * /proc (its command line names its server.properties, whose `listeners` hold the port); undefined
 * when the broker runs elsewhere, so that its CPU cannot be read.
 */
export function localBrokerPid(broker: string): number | undefined {
  const port = broker.split(':').at(-1);
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const config = args[args.indexOf('kafka.Kafka') + 1];
      if (!args.includes('kafka.Kafka') || !config) continue;
      const listeners = /^listeners=(.*)$/m.exec(readFileSync(config, 'utf8'))?.[1] ?? '';
      if (listeners.includes(`//127.0.0.1:${port}`)) return pid;
    } catch {
      // exited meanwhile, or not ours to read
    }
  }
  return undefined;
}
