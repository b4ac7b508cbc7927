export const sectionNames = [
  'appends',
  'http',
  'lag',
  'rebuild',
  'coldstart',
  'ui',
  'kafka',
  'customers',
  'payments',
  'billing',
  'audit',
  'cluster',
  'captable',
  'funding',
] as const;
export type SectionName = (typeof sectionNames)[number];

export interface BenchOptions {
  sections: SectionName[];
  /** Events stored before the rebuild is timed. */
  events: number;
  /** Seconds each HTTP load run lasts (after a short warm-up). */
  httpSeconds: number;
  /** Seconds each append measurement lasts (after a 1 s warm-up). */
  appendSeconds: number;
  /** Commands sent one by one for the answer-to-read-model lag. */
  lagSamples: number;
  out: string;
  /** How the rebuild's history is stored: through appendToStream, or bulk SQL into its tables. */
  load: 'append' | 'bulk';
  /** false: the bench's PostgreSQL commits without waiting for the WAL flush. */
  synchronousCommit: boolean;
  /** Lighthouse runs per login page and profile (the median is reported). */
  lighthouseRuns: number;
  /** Events stored before the Kafka publisher's throughput is timed. */
  kafkaEvents: number;
  /** Customers seeded (as events, across 10 companies) for the customers section. */
  customers: number;
  /** Money movements (captures and refunds) seeded as payment events in one company (payments section). */
  transactions: number;
  /** Subscriptions due at once in the billing section. */
  subscriptions: number;
  /** Holders in the cap table of the captable section. */
  holders: number;
}

const usage = `usage: npm run bench -- [${sectionNames.join('|')} ...] [--events N] [--http-seconds S]
                       [--append-seconds S] [--lag-samples N] [--out FILE]
                       [--synchronous-commit on|off] [--load append|bulk] [--lighthouse-runs N]
                       [--kafka-events N] [--customers N] [--transactions N]
                       [--subscriptions N] [--holders N]
  no section: run all of them`;

function positiveInt(flag: string, raw: string | undefined, max: number): number {
  const value = Number(raw?.replaceAll('_', ''));
  if (!Number.isInteger(value) || value <= 0 || value > max)
    throw new Error(`${flag} needs a whole number from 1 to ${max}\n${usage}`);
  return value;
}

export function parseOptions(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = {
    sections: [],
    events: 1_000_000,
    httpSeconds: 10,
    appendSeconds: 6,
    lagSamples: 500,
    out: 'bench/results/latest.json',
    synchronousCommit: true,
    load: 'append',
    lighthouseRuns: 3,
    kafkaEvents: 100_000,
    customers: 1_000_000,
    transactions: 1_000_000,
    subscriptions: 100_000,
    holders: 100_000,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const next = () => {
      i += 1;
      return argv[i];
    };
    if (arg === '--events') options.events = positiveInt(arg, next(), 20_000_000);
    else if (arg === '--http-seconds') options.httpSeconds = positiveInt(arg, next(), 120);
    else if (arg === '--append-seconds') options.appendSeconds = positiveInt(arg, next(), 120);
    else if (arg === '--lag-samples') options.lagSamples = positiveInt(arg, next(), 100_000);
    else if (arg === '--lighthouse-runs') options.lighthouseRuns = positiveInt(arg, next(), 20);
    else if (arg === '--kafka-events') options.kafkaEvents = positiveInt(arg, next(), 5_000_000);
    else if (arg === '--customers') options.customers = positiveInt(arg, next(), 10_000_000);
    else if (arg === '--transactions') options.transactions = positiveInt(arg, next(), 10_000_000);
    else if (arg === '--subscriptions') options.subscriptions = positiveInt(arg, next(), 1_000_000);
    else if (arg === '--holders') options.holders = positiveInt(arg, next(), 10_000_000);
    else if (arg === '--out') options.out = next() ?? options.out;
    else if (arg === '--synchronous-commit') {
      const value = next();
      if (value !== 'on' && value !== 'off') throw new Error(`${arg} takes on or off\n${usage}`);
      options.synchronousCommit = value === 'on';
    } else if (arg === '--load') {
      const value = next();
      if (value !== 'append' && value !== 'bulk')
        throw new Error(`${arg} takes append or bulk\n${usage}`);
      options.load = value;
    } else if (arg === '--help' || arg === '-h') throw new Error(usage);
    else if ((sectionNames as readonly string[]).includes(arg))
      options.sections.push(arg as SectionName);
    else throw new Error(`unknown argument ${arg}\n${usage}`);
  }
  if (options.sections.length === 0) options.sections = [...sectionNames];
  return options;
}
