import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { apiEnvironment, portalEnvironment, repoRoot, topology } from './topology';

interface Service {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

const compose = parse(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8'), {
  merge: true,
}) as { services: Record<string, Service> };
const services = compose.services;
const local = topology({ basePort: 32000, kafkaPort: 29400 });
const servicesRunning = (command: string) =>
  Object.entries(services).filter(([, service]) => service.command?.join(' ') === command);

describe('docker-compose.yml describes the topology npm run cluster proves', () => {
  it('runs two APIs with PROJECTORS=external and every setting the local APIs get', () => {
    const apis = servicesRunning('npm start');
    expect(apis.map(([name]) => name)).toEqual(['api1', 'api2']);
    const localKeys = Object.keys(apiEnvironment(local, 3000)).filter(
      (key) => key !== 'KAFKA_TOPIC_PREFIX',
    );
    for (const [, api] of apis) {
      expect(Object.keys(api.environment ?? {})).toEqual(expect.arrayContaining(localKeys));
      expect(api.environment?.PROJECTORS).toBe('external');
      expect(api.healthcheck?.test.join(' ')).toContain('/api/health');
    }
  });

  it('runs two projections processes with the shared settings', () => {
    const projections = servicesRunning('npm run projections');
    expect(projections).toHaveLength(2);
    const localKeys = Object.keys(portalEnvironment(local)).filter(
      (key) => key !== 'KAFKA_TOPIC_PREFIX',
    );
    for (const [, service] of projections) {
      expect(Object.keys(service.environment ?? {})).toEqual(expect.arrayContaining(localKeys));
      expect(service.environment?.PROJECTORS).toBeUndefined();
    }
  });

  it('puts nginx in front of both APIs with the nginx configuration the local run uses', () => {
    const nginx = services.nginx;
    expect(nginx?.image).toMatch(/^nginx:/);
    expect(nginx?.volumes).toContain(
      './deploy/nginx/issuer-portal.conf.template:/etc/nginx/templates/default.conf.template:ro',
    );
    const template = readFileSync(
      join(repoRoot, 'deploy/nginx/issuer-portal.conf.template'),
      'utf8',
    );
    const variables = [...template.matchAll(/\$\{(\w+)\}/g)].map((match) => match[1]);
    expect(Object.keys(nginx?.environment ?? {}).sort()).toEqual([...new Set(variables)].sort());
    expect(nginx?.environment).toMatchObject({
      API_UPSTREAM_1: 'api1:3000',
      API_UPSTREAM_2: 'api2:3000',
    });
    expect(Object.keys(nginx?.depends_on ?? {}).sort()).toEqual(['api1', 'api2']);
  });

  it('keeps PostgreSQL, Kafka and a three-node EventStoreDB cluster for every portal process', () => {
    for (const name of ['postgres', 'kafka', 'node1', 'node2', 'node3']) {
      expect(services[name]?.healthcheck, name).toBeDefined();
    }
    for (const [name, service] of [
      ...servicesRunning('npm start'),
      ...servicesRunning('npm run projections'),
    ]) {
      expect(Object.keys(service.depends_on ?? {}).sort(), name).toEqual([
        'kafka',
        'node1',
        'node2',
        'node3',
        'postgres',
      ]);
      expect(service.environment?.EVENTSTORE_URL, name).toBe(
        'esdb://node1:2113,node2:2113,node3:2113?tls=false',
      );
    }
  });
});
