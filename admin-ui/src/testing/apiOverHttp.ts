import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import {
  type AccountsHarness,
  registrationForm,
  startAccountsHarness,
} from '../../../api/src/auth/testing/accountsHarness';
import { createOperator } from '../../../api/src/operator/operator';

/** The browser's local storage, in memory: the providers read and write only through it. */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

export interface ApiOverHttp {
  harness: AccountsHarness;
  url: string;
  /** A registered company's credentials (registered through the API, not the providers). */
  newCompany(): Promise<ReturnType<typeof registrationForm>>;
  newOperator(): Promise<{ email: string; password: string }>;
  close(): Promise<void>;
}

let operators = 0;

/**
 * The real API (every feature, on a fresh test database) behind a real HTTP port, and a page-like
 * global scope for the providers: local storage, and `fetch` resolving the UI's relative `/api/…`
 * URLs against that port as a browser resolves them against the page.
 */
export async function startApiOverHttp(): Promise<ApiOverHttp> {
  // Generous: on a loaded machine the projectors can lag past the default bound, and a command
  // answered before its read model caught up would fail a test about the UI, not the API.
  const harness = await startAccountsHarness({ readYourWritesTimeoutMs: 20_000 });
  // Tokens carry the harness clock; the UI judges their expiry by the real one.
  harness.advanceClock(Date.now() - harness.deps.clock().getTime());
  const server = serve({ fetch: harness.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) =>
    realFetch(typeof input === 'string' ? new URL(input, url) : input, init);
  Object.defineProperty(globalThis, 'localStorage', {
    value: new MemoryStorage(),
    configurable: true,
  });
  return {
    harness,
    url,
    async newCompany() {
      const form = registrationForm();
      const res = await harness.call('POST', '/api/auth/register', { body: form });
      if (res.status !== 200) throw new Error(`register: ${res.status} ${await res.text()}`);
      return form;
    },
    async newOperator() {
      operators += 1;
      const credentials = {
        email: `operator-${operators}-${Date.now()}@platform.test`,
        password: 'aurora-Lynx-2025',
      };
      await createOperator(harness.deps, credentials);
      return credentials;
    },
    async close() {
      globalThis.fetch = realFetch;
      await new Promise((resolve) => server.close(resolve));
      await harness.close();
    },
  };
}
