import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { defaultTopicPrefix } from '@issuer/events';
import type { KafkaSettings } from '@issuer/kafka';
import { z } from 'zod';
import { parseProxyEntry } from './http/clientAddress';
import { type PaymentFailpoint, paymentFailpoints } from './payments/scheduler/failpoints';
import { deriveWebhookSecret } from './payments/webhooks/webhookSignature';

/**
 * Every setting comes from the environment and is validated once at start. Outside the embedded
 * default (that is, with DATABASE_URL set) a missing or weak TOKEN_SECRET stops the process with a
 * message naming the variable, never its value.
 */
const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().url().optional(),
  EMBEDDED_POSTGRES_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
  EVENTSTORE_URL: z
    .string()
    .regex(/^(esdb|esdb\+discover|kurrentdb|kurrentdb\+discover):\/\//, 'must be an esdb:// URL')
    .optional(),
  KAFKA_BROKERS: z
    .string()
    .regex(/^\s*[^\s,:]+:\d{1,5}\s*(,\s*[^\s,:]+:\d{1,5}\s*)*$/, 'must be host:port[,host:port…]')
    .optional(),
  KAFKA_TOPIC_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'letters, digits, _ and - in dot-separated parts')
    .max(100)
    .default(defaultTopicPrefix),
  KAFKA_CLIENT_ID: z.string().min(1).max(100).default('issuer-portal'),
  KAFKA_TOPIC_PARTITIONS: z.coerce.number().int().min(1).max(1000).default(6),
  KAFKA_REPLICATION_FACTOR: z.coerce.number().int().min(1).max(10).default(1),
  KAFKA_PRODUCER_LANES: z.coerce.number().int().min(1).max(8).default(1),
  TOKEN_SECRET: z.string().optional(),
  TOKEN_ISSUER: z.string().min(1).default('issuer-portal'),
  TOKEN_AUDIENCE: z.string().min(1).default('issuer-portal-api'),
  TOKEN_LIFETIME_SECONDS: z.coerce.number().int().min(60).max(604_800).default(43_200),
  READ_YOUR_WRITES_TIMEOUT_MS: z.coerce.number().int().min(0).max(30_000).default(2_000),
  PAYMENT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  CHANGES_MAX_STREAMS: z.coerce.number().int().min(0).max(100_000).default(5_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PROJECTORS: z.enum(['in-process', 'external']).default('in-process'),
  OPERATOR_EMAIL: z.string().email().optional(),
  OPERATOR_PASSWORD: z.string().min(8).optional(),
  SUPPORT_EMAIL: z.string().email().default('support@issuer-portal.local'),
  TERMINAL_WEBHOOK_SECRET: z.string().optional(),
  TERMINAL_GATEWAY_URL: z.string().url().optional(),
  TERMINAL_WEBHOOK_URL: z.string().url().optional(),
  TERMINAL_SIMULATOR_DUPLICATE_RATE: z.coerce.number().min(0).max(1).default(0),
  TERMINAL_SIMULATOR_REORDER_RATE: z.coerce.number().min(0).max(1).default(0),
  TERMINAL_SIMULATOR_PORT: z.coerce.number().int().min(1).max(65535).default(3100),
  ETRANSFER_PROVIDER_URL: z.string().url().optional(),
  ETRANSFER_WEBHOOK_URL: z.string().url().optional(),
  ETRANSFER_SIMULATOR_PORT: z.coerce.number().int().min(1).max(65535).default(3101),
  PAYMENTS_TEST_FAILPOINT: z.enum(paymentFailpoints).optional(),
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ''),
    )
    .refine(
      (entries) => entries.every((entry) => parseProxyEntry(entry) !== undefined),
      'must be IP addresses or CIDR networks, separated by commas (e.g. 127.0.0.1,10.0.0.0/8)',
    ),
});

export type Environment = z.infer<typeof environmentSchema>;

export interface Config {
  port: number;
  dataDir: string;
  /** undefined: start the embedded PostgreSQL under dataDir. */
  databaseUrl: string | undefined;
  embeddedPostgresPort: number;
  eventStoreUrl: string | undefined;
  /** undefined: no KAFKA_BROKERS, nothing is published. */
  kafka: KafkaSettings | undefined;
  tokenSecret: Uint8Array;
  tokenIssuer: string;
  tokenAudience: string;
  tokenLifetimeSeconds: number;
  readYourWritesTimeoutMs: number;
  /** How long a payment waits on its terminal for a card before it expires. */
  paymentTimeoutSeconds: number;
  /** Live update streams (`GET /api/changes`) one API process holds at once; past it, 503. */
  changesMaxStreams: number;
  logLevel: Environment['LOG_LEVEL'];
  /** 'external': `npm run projections` runs them; the API only waits for their checkpoints. */
  projectors: Environment['PROJECTORS'];
  operator: { email: string; password: string } | undefined;
  /** Shown on the admin UI's login page for a forgotten password. */
  supportEmail: string;
  /** Reverse proxies whose X-Forwarded-For names the client (sign-in throttling per address). */
  trustedProxies: readonly string[];
  /** Signs and verifies the terminal gateway's webhooks (TERMINAL_WEBHOOK_SECRET, else derived). */
  terminalWebhookSecret: Uint8Array;
  /** undefined: the terminal simulator runs inside the API; else the URL of `npm run terminal-simulator`. */
  terminalGatewayUrl: string | undefined;
  /** Port of `npm run terminal-simulator`. */
  terminalSimulatorPort: number;
  /** Shares of the simulator's webhooks sent twice, and of approvals reported capture first. */
  terminalSimulatorMisbehaviour: { duplicateRate: number; reorder: number };
  /** Where `npm run terminal-simulator` posts its webhooks (default: the API on PORT, this host). */
  terminalWebhookUrl: string;
  /** undefined: the e-transfer simulator runs inside the API; else the URL of `npm run etransfer-simulator`. */
  etransferProviderUrl: string | undefined;
  /** Port of `npm run etransfer-simulator`. */
  etransferSimulatorPort: number;
  /** Where the e-transfer simulator posts its webhooks (default: the API on PORT, this host). */
  etransferWebhookUrl: string;
  /** Tests only: where the process kills itself while taking a payment. */
  paymentsTestFailpoint: PaymentFailpoint | undefined;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const MIN_SECRET_LENGTH = 32;

/** A secret is weak when short or built from few distinct characters ("aaaa…", "12121212…"). */
export function isWeakSecret(secret: string): boolean {
  return secret.length < MIN_SECRET_LENGTH || new Set(secret).size < 12;
}

/**
 * `serves: 'api'` also resolves the token secret; background processes (projectors, rebuild) do
 * not sign tokens and do not need one.
 */
export async function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  { serves }: { serves: 'api' | 'background' } = { serves: 'api' },
): Promise<Config> {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  if ((e.OPERATOR_EMAIL === undefined) !== (e.OPERATOR_PASSWORD === undefined)) {
    throw new ConfigError('OPERATOR_EMAIL and OPERATOR_PASSWORD must be set together');
  }
  const secret =
    serves === 'api'
      ? new TextEncoder().encode(await tokenSecret(e.TOKEN_SECRET, e.DATABASE_URL, dataDir))
      : new Uint8Array();
  return {
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    embeddedPostgresPort: e.EMBEDDED_POSTGRES_PORT,
    eventStoreUrl: e.EVENTSTORE_URL,
    kafka: kafkaSettings(e),
    tokenSecret: secret,
    tokenIssuer: e.TOKEN_ISSUER,
    tokenAudience: e.TOKEN_AUDIENCE,
    tokenLifetimeSeconds: e.TOKEN_LIFETIME_SECONDS,
    readYourWritesTimeoutMs: e.READ_YOUR_WRITES_TIMEOUT_MS,
    paymentTimeoutSeconds: e.PAYMENT_TIMEOUT_SECONDS,
    changesMaxStreams: e.CHANGES_MAX_STREAMS,
    logLevel: e.LOG_LEVEL,
    projectors: e.PROJECTORS,
    operator:
      e.OPERATOR_EMAIL && e.OPERATOR_PASSWORD
        ? { email: e.OPERATOR_EMAIL, password: e.OPERATOR_PASSWORD }
        : undefined,
    supportEmail: e.SUPPORT_EMAIL,
    trustedProxies: e.TRUSTED_PROXIES,
    terminalWebhookSecret:
      serves === 'api' ? webhookSecret(e.TERMINAL_WEBHOOK_SECRET, secret) : new Uint8Array(),
    terminalGatewayUrl: e.TERMINAL_GATEWAY_URL,
    terminalSimulatorPort: e.TERMINAL_SIMULATOR_PORT,
    terminalSimulatorMisbehaviour: {
      duplicateRate: e.TERMINAL_SIMULATOR_DUPLICATE_RATE,
      reorder: e.TERMINAL_SIMULATOR_REORDER_RATE,
    },
    paymentsTestFailpoint: e.PAYMENTS_TEST_FAILPOINT,
    terminalWebhookUrl:
      e.TERMINAL_WEBHOOK_URL ?? `http://127.0.0.1:${e.PORT}/api/payments/webhooks/terminal`,
    etransferProviderUrl: e.ETRANSFER_PROVIDER_URL,
    etransferSimulatorPort: e.ETRANSFER_SIMULATOR_PORT,
    etransferWebhookUrl:
      e.ETRANSFER_WEBHOOK_URL ?? `http://127.0.0.1:${e.PORT}/api/etransfers/webhooks/provider`,
  };
}

function webhookSecret(fromEnv: string | undefined, tokenSecret: Uint8Array): Uint8Array {
  if (fromEnv === undefined) return deriveWebhookSecret(tokenSecret);
  if (isWeakSecret(fromEnv)) {
    throw new ConfigError(
      `TERMINAL_WEBHOOK_SECRET is too weak: use at least ${MIN_SECRET_LENGTH} random characters`,
    );
  }
  return new TextEncoder().encode(fromEnv);
}

function kafkaSettings(e: Environment): KafkaSettings | undefined {
  if (e.KAFKA_BROKERS === undefined) return undefined;
  return {
    brokers: e.KAFKA_BROKERS.split(',').map((broker) => broker.trim()),
    clientId: e.KAFKA_CLIENT_ID,
    topicPrefix: e.KAFKA_TOPIC_PREFIX,
    topicPartitions: e.KAFKA_TOPIC_PARTITIONS,
    replicationFactor: e.KAFKA_REPLICATION_FACTOR,
    producerLanes: e.KAFKA_PRODUCER_LANES,
  };
}

async function tokenSecret(
  fromEnv: string | undefined,
  databaseUrl: string | undefined,
  dataDir: string,
): Promise<string> {
  if (fromEnv !== undefined) {
    if (isWeakSecret(fromEnv)) {
      throw new ConfigError(
        `TOKEN_SECRET is too weak: use at least ${MIN_SECRET_LENGTH} random characters (e.g. openssl rand -base64 48)`,
      );
    }
    return fromEnv;
  }
  if (databaseUrl !== undefined) {
    throw new ConfigError('TOKEN_SECRET is required when DATABASE_URL is set');
  }
  return embeddedSecret(dataDir);
}

/** The embedded default generates its secret once and keeps it beside the data. */
async function embeddedSecret(dataDir: string): Promise<string> {
  const file = join(dataDir, 'token-secret');
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return secret;
}
