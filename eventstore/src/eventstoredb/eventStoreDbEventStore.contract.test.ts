// The shared event-store contract against a real EventStoreDB: the server at EVENTSTORE_URL when it
// is set, otherwise a throwaway container when a Docker engine answers; without either the suite is
// registered as skipped and one line says why.
import {
  GenericContainer,
  getContainerRuntimeClient,
  type StartedTestContainer,
  Wait,
} from 'testcontainers';
import { afterAll, beforeAll, describe } from 'vitest';
import { describeEventStoreContract } from '../contract/eventStoreContract';
import { EventStoreDbEventStore } from './eventStoreDbEventStore';

const IMAGE = 'eventstore/eventstore:24.10';
const NODE_PORT = 2113;
/** testcontainers gives up within milliseconds when there is no engine; a hung socket must not stall collection. */
const DOCKER_PROBE_TIMEOUT_MS = 5_000;
const CONTAINER_START_TIMEOUT_MS = 180_000;
const SERVER_READY_TIMEOUT_MS = 60_000;

type Target = { kind: 'url'; url: string } | { kind: 'docker' } | { kind: 'none'; reason: string };

async function findTarget(): Promise<Target> {
  const url = process.env.EVENTSTORE_URL;
  if (url) return { kind: 'url', url };
  try {
    await withTimeout(getContainerRuntimeClient(), DOCKER_PROBE_TIMEOUT_MS, 'no answer');
    return { kind: 'docker' };
  } catch (error) {
    return { kind: 'none', reason: error instanceof Error ? error.message : String(error) };
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A fresh node answers HTTP before it has elected itself leader; wait until reads succeed. */
async function waitUntilServing(url: string): Promise<void> {
  const deadline = Date.now() + SERVER_READY_TIMEOUT_MS;
  for (;;) {
    const store = new EventStoreDbEventStore(url);
    try {
      await store.headPosition();
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(
          `EventStoreDB did not serve reads within ${SERVER_READY_TIMEOUT_MS / 1000} s: ${reason}`,
          { cause: error },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      await store.close();
    }
  }
}

let url = '';
const makeStore = async () => {
  const store = new EventStoreDbEventStore(url);
  return { store, cleanup: () => store.close() };
};

const target = await findTarget();

if (target.kind === 'url') {
  describe(`EventStoreDB at EVENTSTORE_URL`, () => {
    beforeAll(async () => {
      url = target.url;
      await waitUntilServing(url);
    }, SERVER_READY_TIMEOUT_MS + 5_000);
    describeEventStoreContract('eventstoredb', makeStore);
  });
} else if (target.kind === 'docker') {
  describe(`EventStoreDB in a container (${IMAGE})`, () => {
    let container: StartedTestContainer | undefined;
    beforeAll(async () => {
      container = await new GenericContainer(IMAGE)
        .withEnvironment({
          EVENTSTORE_INSECURE: 'true',
          EVENTSTORE_MEM_DB: 'true',
          EVENTSTORE_RUN_PROJECTIONS: 'None',
        })
        .withExposedPorts(NODE_PORT)
        .withWaitStrategy(Wait.forHealthCheck())
        .withStartupTimeout(CONTAINER_START_TIMEOUT_MS)
        .start();
      url = `esdb://${container.getHost()}:${container.getMappedPort(NODE_PORT)}?tls=false`;
      await waitUntilServing(url);
    }, CONTAINER_START_TIMEOUT_MS + SERVER_READY_TIMEOUT_MS);
    afterAll(async () => {
      await container?.stop();
    });
    describeEventStoreContract('eventstoredb', makeStore);
  });
} else {
  console.log(
    `EventStoreDB contract suite skipped: EVENTSTORE_URL is not set and no Docker engine was found (testcontainers: ${target.reason})`,
  );
  describe.skip('EventStoreDB (skipped: no EVENTSTORE_URL, no Docker engine)', () => {
    describeEventStoreContract('eventstoredb', makeStore);
  });
}
