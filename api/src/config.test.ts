import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const strongSecret = 'k3J9x-Qp2LmZ8vW0rT5yB7nH1cF4gD6sA_eU';

describe('configuration', () => {
  it('refuses a weak TOKEN_SECRET, naming the variable but never its value', async () => {
    const weak = 'password123password123password123';
    const failure = loadConfig({ DATABASE_URL: 'postgres://x@localhost/db', TOKEN_SECRET: weak });
    await expect(failure).rejects.toThrow(/TOKEN_SECRET is too weak/);
    await expect(failure).rejects.not.toThrow(weak);
  });

  it('refuses to run against an external database without TOKEN_SECRET', async () => {
    await expect(loadConfig({ DATABASE_URL: 'postgres://x@localhost/db' })).rejects.toThrow(
      'TOKEN_SECRET is required when DATABASE_URL is set',
    );
  });

  it('names the variable of any invalid setting', async () => {
    await expect(loadConfig({ PORT: 'eighty' })).rejects.toThrow(/PORT/);
    await expect(loadConfig({ EVENTSTORE_URL: 'http://esdb:2113' })).rejects.toThrow(
      /EVENTSTORE_URL/,
    );
  });

  it('accepts a strong secret with an external database', async () => {
    const config = await loadConfig({
      DATABASE_URL: 'postgres://x@localhost/db',
      TOKEN_SECRET: strongSecret,
    });
    expect(new TextDecoder().decode(config.tokenSecret)).toBe(strongSecret);
    expect(config.port).toBe(3000);
  });

  it('reads PAYMENT_TIMEOUT_SECONDS (default 300) and names it when invalid', async () => {
    const external = { DATABASE_URL: 'postgres://x@localhost/db', TOKEN_SECRET: strongSecret };
    expect((await loadConfig(external)).paymentTimeoutSeconds).toBe(300);
    expect(
      (await loadConfig({ ...external, PAYMENT_TIMEOUT_SECONDS: '90' })).paymentTimeoutSeconds,
    ).toBe(90);
    for (const bad of ['0', '1.5', 'soon', '86401']) {
      await expect(loadConfig({ ...external, PAYMENT_TIMEOUT_SECONDS: bad }), bad).rejects.toThrow(
        /PAYMENT_TIMEOUT_SECONDS/,
      );
    }
  });

  it('reads TRUSTED_PROXIES as addresses and CIDR networks, and names it when one is not', async () => {
    const external = { DATABASE_URL: 'postgres://x@localhost/db', TOKEN_SECRET: strongSecret };
    expect((await loadConfig(external)).trustedProxies).toEqual([]);
    const config = await loadConfig({
      ...external,
      TRUSTED_PROXIES: ' 127.0.0.1, 10.0.0.0/8 ,::1,fd00::/8',
    });
    expect(config.trustedProxies).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8']);
    for (const bad of ['10.0.0.0/33', 'proxy.local', '10.0.0.1/8/1', '::1/129', '10.0.0/8']) {
      await expect(loadConfig({ ...external, TRUSTED_PROXIES: bad }), bad).rejects.toThrow(
        /TRUSTED_PROXIES/,
      );
    }
  });

  it('derives the terminal webhook secret from the token secret, or takes TERMINAL_WEBHOOK_SECRET (never a weak one)', async () => {
    const external = { DATABASE_URL: 'postgres://x@localhost/db', TOKEN_SECRET: strongSecret };
    const derived = await loadConfig(external);
    expect(derived.terminalWebhookSecret).toHaveLength(32);
    expect(derived.terminalWebhookSecret).toEqual(
      (await loadConfig(external)).terminalWebhookSecret,
    );
    const own = 'whsec-Q8v2Lm4Rt7Yp1Xc9Nz3Kd6Hf0Bj5Gs';
    const configured = await loadConfig({ ...external, TERMINAL_WEBHOOK_SECRET: own });
    expect(new TextDecoder().decode(configured.terminalWebhookSecret)).toBe(own);
    const weak = loadConfig({ ...external, TERMINAL_WEBHOOK_SECRET: 'short' });
    await expect(weak).rejects.toThrow(/TERMINAL_WEBHOOK_SECRET is too weak/);
    await expect(weak).rejects.not.toThrow(/short/);
    expect(derived.terminalGatewayUrl).toBeUndefined();
    await expect(loadConfig({ ...external, TERMINAL_GATEWAY_URL: 'nope' })).rejects.toThrow(
      /TERMINAL_GATEWAY_URL/,
    );
  });

  describe('on the embedded default', () => {
    it('generates a secret once, keeps it in the data folder and reuses it', async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'issuer-config-'));
      const first = await loadConfig({ DATA_DIR: dataDir });
      const second = await loadConfig({ DATA_DIR: dataDir });
      expect(first.tokenSecret.length).toBeGreaterThanOrEqual(48);
      expect(second.tokenSecret).toEqual(first.tokenSecret);
      const file = join(dataDir, 'token-secret');
      expect((await readFile(file, 'utf8')).trim()).toBe(
        new TextDecoder().decode(first.tokenSecret),
      );
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    });
  });

  it('background processes need no token secret', async () => {
    const config = await loadConfig(
      { DATABASE_URL: 'postgres://x@localhost/db' },
      { serves: 'background' },
    );
    expect(config.tokenSecret.length).toBe(0);
  });

  describe('Kafka', () => {
    it('is off without KAFKA_BROKERS', async () => {
      expect((await loadConfig({}, { serves: 'background' })).kafka).toBeUndefined();
    });

    it('turns on with KAFKA_BROKERS and fills in the defaults', async () => {
      const config = await loadConfig(
        { KAFKA_BROKERS: ' kafka-1:9092, kafka-2:9092 ' },
        { serves: 'background' },
      );
      expect(config.kafka).toEqual({
        brokers: ['kafka-1:9092', 'kafka-2:9092'],
        clientId: 'issuer-portal',
        topicPrefix: 'issuer',
        topicPartitions: 6,
        replicationFactor: 1,
        producerLanes: 1,
      });
    });

    it('takes the publisher’s producer lanes from KAFKA_PRODUCER_LANES', async () => {
      const config = await loadConfig(
        { KAFKA_BROKERS: 'kafka-1:9092', KAFKA_PRODUCER_LANES: '3' },
        { serves: 'background' },
      );
      expect(config.kafka?.producerLanes).toBe(3);
    });

    it('names the variable of an invalid Kafka setting', async () => {
      const background = { serves: 'background' } as const;
      await expect(loadConfig({ KAFKA_BROKERS: 'kafka-1' }, background)).rejects.toThrow(
        /KAFKA_BROKERS/,
      );
      await expect(
        loadConfig({ KAFKA_BROKERS: 'k:9092', KAFKA_TOPIC_PREFIX: 'bad prefix' }, background),
      ).rejects.toThrow(/KAFKA_TOPIC_PREFIX/);
      await expect(
        loadConfig({ KAFKA_BROKERS: 'k:9092', KAFKA_TOPIC_PARTITIONS: '0' }, background),
      ).rejects.toThrow(/KAFKA_TOPIC_PARTITIONS/);
      await expect(
        loadConfig({ KAFKA_BROKERS: 'k:9092', KAFKA_REPLICATION_FACTOR: 'three' }, background),
      ).rejects.toThrow(/KAFKA_REPLICATION_FACTOR/);
      await expect(
        loadConfig({ KAFKA_BROKERS: 'k:9092', KAFKA_PRODUCER_LANES: '0' }, background),
      ).rejects.toThrow(/KAFKA_PRODUCER_LANES/);
    });
  });
});
