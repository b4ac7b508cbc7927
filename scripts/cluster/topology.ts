import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { runningPostmaster, startEmbeddedPostgres } from '@issuer/eventstore';
import pg from 'pg';
import { ProcessTable, waitUntil } from './processes';

const run = promisify(execFile);
export const repoRoot = resolve(import.meta.dirname, '../..');
const brokerScript = join(repoRoot, 'scripts/kafka/broker.sh');
const nginxTemplate = join(repoRoot, 'deploy/nginx/issuer-portal.conf.template');

/** Where everything runs: ports from one base (PostgreSQL, the APIs, nginx) and Kafka's own. */
export interface Topology {
  stateDir: string;
  postgresPort: number;
  apiPorts: readonly [number, number];
  nginxPort: number;
  kafkaPort: number;
  topicPrefix: string;
}

export const apiNames = ['api-1', 'api-2'] as const;
export const projectionsNames = ['projections-1', 'projections-2'] as const;
export type ApiName = (typeof apiNames)[number];
export type ProjectionsName = (typeof projectionsNames)[number];

export const operator = { email: 'operator@cluster.test', password: 'cluster-operator-pass-1' };
const databaseName = 'issuer';

export function topology(options: { basePort: number; kafkaPort: number; stateDir?: string }) {
  const { basePort } = options;
  return {
    stateDir: resolve(options.stateDir ?? join(repoRoot, '.cluster')),
    postgresPort: basePort,
    apiPorts: [basePort + 1, basePort + 2],
    nginxPort: basePort + 80,
    kafkaPort: options.kafkaPort,
    topicPrefix: 'issuer-cluster',
  } satisfies Topology;
}

export const baseUrl = (t: Topology) => `http://127.0.0.1:${t.nginxPort}`;
export const databaseUrl = (t: Topology, database = databaseName) =>
  `postgres://postgres:postgres@127.0.0.1:${t.postgresPort}/${database}`;

/** One token secret per state folder, generated once (the APIs must share it). */
function tokenSecret(t: Topology): string {
  const file = join(t.stateDir, 'token-secret');
  if (!existsSync(file)) {
    mkdirSync(t.stateDir, { recursive: true });
    writeFileSync(file, `${crypto.randomUUID()}${crypto.randomUUID()}\n`, { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

/** The settings every process of the portal gets, as in docker-compose.yml's x-app-env. */
export function portalEnvironment(t: Topology): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: databaseUrl(t),
    KAFKA_BROKERS: `127.0.0.1:${t.kafkaPort}`,
    KAFKA_TOPIC_PREFIX: t.topicPrefix,
    LOG_LEVEL: 'warn',
  };
}

/** An API process's own settings beside the shared ones (docker-compose.yml's api1 and api2). */
export function apiEnvironment(t: Topology, port: number): NodeJS.ProcessEnv {
  return {
    ...portalEnvironment(t),
    PORT: String(port),
    PROJECTORS: 'external',
    TRUSTED_PROXIES: '127.0.0.1',
  };
}

function systemEnvironment(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME };
}

export class Cluster {
  readonly processes: ProcessTable;

  constructor(readonly t: Topology) {
    this.processes = new ProcessTable(t.stateDir);
  }

  async start(log: (line: string) => void): Promise<void> {
    mkdirSync(this.t.stateDir, { recursive: true });
    log(`PostgreSQL on ${this.t.postgresPort}`);
    await this.startPostgres();
    await this.createDatabase();
    log(`Kafka broker on ${this.t.kafkaPort}`);
    await this.startBroker();
    await run('node', [join(repoRoot, 'scripts/buildUi.mjs')], { cwd: repoRoot });
    // The first API migrates the schemas alone, so the others never race it.
    for (const name of apiNames) {
      log(`${name} on ${this.apiPort(name)}`);
      await this.startApi(name);
    }
    for (const name of projectionsNames) {
      log(name);
      this.startProjections(name);
    }
    log(`nginx on ${this.t.nginxPort}`);
    await this.startNginx();
  }

  async stop(log: (line: string) => void): Promise<void> {
    await this.stopNginx();
    for (const name of [...apiNames, ...projectionsNames]) {
      log(`stopping ${name}`);
      await this.processes.stop(name);
    }
    log('stopping the Kafka broker');
    await this.stopBroker();
    log('stopping PostgreSQL');
    await this.stopPostgres();
  }

  /** The data of a stopped cluster: PostgreSQL's, the broker's, the logs. */
  async removeData(): Promise<void> {
    for (const folder of ['postgres', 'kafka', 'logs', 'nginx']) {
      await rm(join(this.t.stateDir, folder), { recursive: true, force: true });
    }
  }

  apiPort(name: ApiName): number {
    return this.t.apiPorts[apiNames.indexOf(name)] ?? 0;
  }

  async startPostgres(): Promise<void> {
    // Started through pg_ctl in a session of its own: it outlives this command.
    await startEmbeddedPostgres({
      dataDir: join(this.t.stateDir, 'postgres'),
      port: this.t.postgresPort,
      persistent: true,
    });
  }

  async stopPostgres(): Promise<void> {
    const dataDir = join(this.t.stateDir, 'postgres');
    if (!existsSync(dataDir) || !(await runningPostmaster(dataDir))) return;
    // Adopts the server this folder runs (its starter has exited) and stops it.
    const server = await startEmbeddedPostgres({ dataDir, port: this.t.postgresPort });
    await server.stop();
  }

  async postgresUp(): Promise<boolean> {
    const client = new pg.Client({ connectionString: databaseUrl(this.t, 'postgres') });
    try {
      await client.connect();
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  }

  private async createDatabase(): Promise<void> {
    const client = new pg.Client({ connectionString: databaseUrl(this.t, 'postgres') });
    await client.connect();
    try {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [
        databaseName,
      ]);
      if (!rowCount) await client.query(`CREATE DATABASE ${databaseName}`);
    } finally {
      await client.end();
    }
  }

  async startBroker(): Promise<void> {
    await run('bash', [brokerScript, 'start', ...this.brokerArgs()], {
      env: { ...process.env, KAFKA_HEAP_OPTS: '-Xms128m -Xmx384m' },
    });
  }

  async stopBroker(): Promise<void> {
    await run('bash', [brokerScript, 'stop', ...this.brokerArgs()]);
  }

  private brokerArgs(): string[] {
    return ['--port', String(this.t.kafkaPort), '--state-dir', join(this.t.stateDir, 'kafka')];
  }

  async startApi(name: ApiName): Promise<void> {
    const port = this.apiPort(name);
    this.processes.start({
      name,
      command: process.execPath,
      args: ['--import', 'tsx', 'api/src/main.ts'],
      cwd: repoRoot,
      env: {
        ...systemEnvironment(),
        ...apiEnvironment(this.t, port),
        TOKEN_SECRET: tokenSecret(this.t),
        // The load's operator (compose creates none: `npm run operator` does, once).
        OPERATOR_EMAIL: operator.email,
        OPERATOR_PASSWORD: operator.password,
        PGAPPNAME: name,
      },
    });
    await waitUntil(name, () => healthy(`http://127.0.0.1:${port}`), 180_000);
  }

  startProjections(name: ProjectionsName): void {
    this.processes.start({
      name,
      command: process.execPath,
      args: ['--import', 'tsx', 'api/src/projectorsMain.ts'],
      cwd: repoRoot,
      // The application name tells which process holds the publisher's lock (pg_stat_activity).
      env: { ...systemEnvironment(), ...portalEnvironment(this.t), PGAPPNAME: name },
    });
  }

  async startNginx(): Promise<void> {
    const dir = join(this.t.stateDir, 'nginx');
    mkdirSync(join(dir, 'temp'), { recursive: true });
    const server = readFileSync(nginxTemplate, 'utf8').replace(
      /\$\{(\w+)\}/g,
      (_, variable: string) =>
        ({
          API_UPSTREAM_1: `127.0.0.1:${this.t.apiPorts[0]}`,
          API_UPSTREAM_2: `127.0.0.1:${this.t.apiPorts[1]}`,
          NGINX_LISTEN: `127.0.0.1:${this.t.nginxPort}`,
        })[variable] ?? `\${${variable}}`,
    );
    writeFileSync(join(dir, 'issuer-portal.conf'), server);
    writeFileSync(join(dir, 'nginx.conf'), nginxMainConfig(dir));
    // -e: the start-up error log too is ours (the default one is root's /var/log/nginx).
    const errorLog = join(dir, 'error.log');
    await run(nginxBinary(), ['-p', dir, '-e', errorLog, '-c', join(dir, 'nginx.conf')]);
    await waitUntil('nginx', () => healthy(baseUrl(this.t)), 30_000);
  }

  async stopNginx(): Promise<void> {
    // nginx writes its master's pid where nginx.conf says: the same pid-file convention.
    await this.processes.stop('nginx', 'SIGQUIT');
  }

  async status(): Promise<string[]> {
    const lines: string[] = [];
    lines.push(
      `postgres        ${(await this.postgresUp()) ? 'up' : 'down'}  port ${this.t.postgresPort}`,
    );
    const broker = await run('bash', [brokerScript, 'status', ...this.brokerArgs()]).then(
      () => 'up',
      () => 'down',
    );
    lines.push(`kafka           ${broker}  port ${this.t.kafkaPort}`);
    for (const name of [...apiNames, ...projectionsNames, 'nginx']) {
      const pid = this.processes.pid(name);
      lines.push(`${name.padEnd(15)} ${pid ? `up    pid ${pid}` : 'down'}`);
    }
    const health = await fetch(`${baseUrl(this.t)}/api/health`)
      .then((res) => `${res.status}`)
      .catch(() => 'no answer');
    lines.push(`GET ${baseUrl(this.t)}/api/health through nginx: ${health}`);
    return lines;
  }
}

export async function healthy(url: string): Promise<boolean> {
  const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5_000) });
  await res.body?.cancel();
  return res.status < 500;
}

function nginxBinary(): string {
  return existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
}

/** nginx as a process of this folder: its own pid, logs and temp paths, nothing of the system's. */
function nginxMainConfig(dir: string): string {
  return `# Written by npm run cluster
${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${join(dir, '..', 'pids', 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path ${join(dir, 'temp')};
    proxy_temp_path ${join(dir, 'temp')};
    fastcgi_temp_path ${join(dir, 'temp')};
    uwsgi_temp_path ${join(dir, 'temp')};
    scgi_temp_path ${join(dir, 'temp')};
    include ${join(dir, 'issuer-portal.conf')};
}
`;
}
