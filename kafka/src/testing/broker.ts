import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { defaultTopicPrefix } from '@issuer/events';
import type { KafkaSettings } from '../settings';

const run = promisify(execFile);
const brokerScript = resolve(import.meta.dirname, '../../../scripts/kafka/broker.sh');

/**
 * The broker the Kafka suites run against: KAFKA_BROKERS (CI starts scripts/kafka/broker.sh and
 * sets it). Without it the suites are registered as skipped; the global setup says why, once.
 */
export function kafkaBrokersForTests(): string[] | undefined {
  return process.env.KAFKA_BROKERS?.split(',').map((broker) => broker.trim());
}

/** Settings with a topic prefix of their own, so tests sharing one broker never see each other. */
export function testKafkaSettings(brokers: readonly string[]): KafkaSettings {
  return {
    brokers,
    clientId: 'issuer-portal-test',
    topicPrefix: `${defaultTopicPrefix}-t${randomUUID().slice(0, 8)}`,
    topicPartitions: 3,
    replicationFactor: 1,
  };
}

/**
 * A broker of a test's own (scripts/kafka/broker.sh with its own port and state folder), for
 * tests that stop it: the shared broker other suites use is never disturbed.
 */
export class DedicatedBroker {
  private constructor(
    readonly port: number,
    private readonly stateDir: string,
  ) {}

  static async start(): Promise<DedicatedBroker> {
    const stateDir = await mkdtemp(join(tmpdir(), 'issuer-kafka-broker-'));
    for (let attempt = 1; ; attempt++) {
      // An even port from 10000 to 19998, below Linux's ephemeral range (32768 up), so no client
      // connection takes it while a test has the broker stopped; the controller takes the next one.
      const broker = new DedicatedBroker(10_000 + Math.floor(Math.random() * 5_000) * 2, stateDir);
      try {
        await broker.start();
        return broker;
      } catch (error) {
        const portTaken = String(error).includes('already in use');
        if (!portTaken || attempt >= 5) throw error;
      }
    }
  }

  get brokers(): string[] {
    return [`127.0.0.1:${this.port}`];
  }

  start(): Promise<void> {
    return this.#script('start');
  }

  stop(): Promise<void> {
    return this.#script('stop');
  }

  async remove(): Promise<void> {
    await this.stop();
    await rm(this.stateDir, { recursive: true, force: true });
  }

  async #script(command: 'start' | 'stop'): Promise<void> {
    await run(
      'bash',
      [brokerScript, command, '--port', String(this.port), '--state-dir', this.stateDir],
      {
        env: { ...process.env, KAFKA_HEAP_OPTS: '-Xms128m -Xmx384m' },
      },
    );
  }
}
