import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '../http/testing/responses';
import { type BucketState, decideLoginAttempt, loginThrottlePolicy } from './loginThrottle';
import { type AccountsHarness, registered, startAccountsHarness } from './testing/accountsHarness';

let h: AccountsHarness;
let behindProxy: AccountsHarness;
beforeAll(async () => {
  [h, behindProxy] = await Promise.all([
    startAccountsHarness(),
    startAccountsHarness({ trustedProxies: ['10.0.0.0/8'] }),
  ]);
});
afterAll(() => Promise.all([h.close(), behindProxy.close()]));

let addresses = 0;
/** A fresh client address per use, so one test's failures never throttle another's. */
const newAddress = () => {
  addresses += 1;
  return `198.51.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

type Attempt = { email: string; password: string; from: string; headers?: Record<string, string> };
const signIn = (harness: AccountsHarness, { email, password, from, headers }: Attempt) =>
  harness.call('POST', '/api/auth', {
    body: { email, password },
    from,
    ...(headers && { headers }),
  });

const statuses = (answers: Response[]) => answers.map((res) => res.status);
const count = (list: number[], status: number) => list.filter((s) => s === status).length;

const { accountFromAddress, address, account } = loginThrottlePolicy.buckets;

describe('a burst of parallel wrong guesses for one account', () => {
  it('has at most the allowed number evaluated, and the right password is refused after it', async () => {
    const { form } = await registered(h);
    const from = newAddress();
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        signIn(h, { email: form.email, password: `wrong-guess-${n}`, from }),
      ),
    );
    const answered = statuses(burst);
    expect(count(answered, 401)).toBe(accountFromAddress.freeFailures);
    expect(count(answered, 429)).toBe(30 - accountFromAddress.freeFailures);

    const right = await signIn(h, { email: form.email, password: form.password, from });
    expect(right.status).toBe(429);
    expect((await errorOf(right)).code).toBe('too_many_attempts');
  });
});

describe('one address trying many emails', () => {
  it('is delayed after its free failures, whichever emails it tries; other addresses are not', async () => {
    const from = newAddress();
    const answered: number[] = [];
    for (let n = 0; n < 80; n++) {
      const res = await signIn(h, {
        email: `spray-${n % 40}@victims.test`,
        password: 'Summer2025!',
        from,
      });
      answered.push(res.status);
    }
    expect(count(answered, 401)).toBe(address.freeFailures);
    expect(answered.slice(address.freeFailures)).toEqual(
      Array(80 - address.freeFailures).fill(429),
    );
    const elsewhere = await signIn(h, {
      email: 'spray-1@victims.test',
      password: 'Summer2025!',
      from: newAddress(),
    });
    expect(elsewhere.status).toBe(401);
  });
});

describe('X-Forwarded-For', () => {
  const spray = async (harness: AccountsHarness, attempt: (n: number) => Attempt) => {
    const answered: number[] = [];
    for (let n = 0; n < address.freeFailures + 5; n++) {
      answered.push((await signIn(harness, attempt(n))).status);
    }
    return answered;
  };

  it('is ignored without trusted proxies: rotating it does not escape the address limit', async () => {
    const from = newAddress();
    const answered = await spray(h, (n) => ({
      email: `xff-${n}@victims.test`,
      password: 'Winter2025!',
      from,
      headers: { 'X-Forwarded-For': `203.0.113.${n + 1}` },
    }));
    expect(count(answered, 429)).toBe(5);
  });

  it('is ignored from a peer that is not a trusted proxy', async () => {
    const answered = await spray(behindProxy, (n) => ({
      email: `xff-untrusted-${n}@victims.test`,
      password: 'Winter2025!',
      from: '192.0.2.200',
      headers: { 'X-Forwarded-For': `203.0.113.${n + 1}` },
    }));
    expect(count(answered, 429)).toBe(5);
  });

  it('names the client when a trusted proxy sends it, each client limited on its own', async () => {
    const clients = await spray(behindProxy, (n) => ({
      email: `xff-trusted-${n}@victims.test`,
      password: 'Winter2025!',
      from: '10.1.2.3',
      headers: { 'X-Forwarded-For': `203.0.113.${n + 1}, 10.9.9.9` },
    }));
    expect(count(clients, 429)).toBe(0);

    // The client's own X-Forwarded-For entries (left of the one our proxy wrote) count for nothing.
    const spoofer = await spray(behindProxy, (n) => ({
      email: `xff-spoof-${n}@victims.test`,
      password: 'Winter2025!',
      from: '10.1.2.3',
      headers: { 'X-Forwarded-For': `192.0.2.${n + 1}, 198.18.0.1` },
    }));
    expect(count(spoofer, 429)).toBe(5);
  });
});

describe('failures for one account from one address', () => {
  it('make the next try wait longer each time: 1 s, 2 s, 4 s', async () => {
    const { form } = await registered(h);
    const from = newAddress();
    const wrong = () => signIn(h, { email: form.email, password: 'not-it-at-all', from });
    for (let n = 0; n < accountFromAddress.freeFailures; n++)
      expect((await wrong()).status).toBe(401);
    for (const seconds of [1, 2, 4]) {
      const refused = await wrong();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('Retry-After')).toBe(String(seconds));
      h.advanceClock(seconds * 1000);
      expect((await wrong()).status).toBe(401);
    }
  });
});

describe('an attacker guessing one account from many addresses', () => {
  it('delays its owner by at most a minute per try, and not at all from an address they used', async () => {
    const { form } = await registered(h);
    const home = newAddress();
    expect(
      (await signIn(h, { email: form.email, password: form.password, from: home })).status,
    ).toBe(200);
    let evaluated = 0;
    let longestWaitSeconds = 0;
    while (evaluated < account.freeFailures + 20) {
      const res = await signIn(h, {
        email: form.email,
        password: 'guess-guess',
        from: newAddress(),
      });
      if (res.status === 401) evaluated += 1;
      else {
        expect(res.status).toBe(429);
        const wait = Number(res.headers.get('Retry-After'));
        longestWaitSeconds = Math.max(longestWaitSeconds, wait);
        h.advanceClock(wait * 1000);
      }
    }
    expect(longestWaitSeconds).toBe(account.maxDelayMs / 1000);

    const atHome = await signIn(h, { email: form.email, password: form.password, from: home });
    expect(atHome.status).toBe(200);

    const travelling = newAddress();
    const first = await signIn(h, { email: form.email, password: form.password, from: travelling });
    expect(first.status).toBe(429);
    const wait = Number(first.headers.get('Retry-After'));
    expect(wait).toBeLessThanOrEqual(account.maxDelayMs / 1000);
    h.advanceClock(wait * 1000);
    const after = await signIn(h, { email: form.email, password: form.password, from: travelling });
    expect(after.status).toBe(200);
  });
});

describe('behind a real Node server', () => {
  it('counts the TCP peer the socket reports', async () => {
    const server = serve({ fetch: h.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/api/auth`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '203.0.113.77' },
        body: JSON.stringify({ email: 'peer@victims.test', password: 'Autumn2025!' }),
      });
      expect(res.status).toBe(401);
      const { rows } = await h.pool.query<{ bucket: string }>(
        "SELECT bucket FROM login_throttle WHERE bucket LIKE 'account-from-address:%peer@victims.test%'",
      );
      expect(rows).toEqual([{ bucket: 'account-from-address:["peer@victims.test","127.0.0.1"]' }]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('a successful sign-in', () => {
  it('clears its failures from that address, so a later typo is not delayed', async () => {
    const { form } = await registered(h);
    const from = newAddress();
    for (let n = 0; n < accountFromAddress.freeFailures - 1; n++) {
      await signIn(h, { email: form.email, password: 'typo-typo', from });
    }
    expect((await signIn(h, { email: form.email, password: form.password, from })).status).toBe(
      200,
    );
    for (let n = 0; n < accountFromAddress.freeFailures - 1; n++) {
      expect((await signIn(h, { email: form.email, password: 'typo-typo', from })).status).toBe(
        401,
      );
    }
  });
});

describe('the decision, given the buckets', () => {
  const now = new Date('2025-03-01T10:00:00.000Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const fresh: BucketState = { failures: 0, lastFailureAt: null, retryAt: null, signedInAt: null };
  const day = 24 * 60 * 60 * 1000;

  it("forgets a bucket's failures a day after the last one", () => {
    const decision = decideLoginAttempt(
      {
        address: fresh,
        accountFromAddress: { ...fresh, failures: 12, lastFailureAt: ago(day) },
        account: { ...fresh, failures: 3, lastFailureAt: ago(day - 1) },
      },
      now,
    );
    expect(decision).toEqual({
      outcome: 'reserved',
      counted: {
        address: { failures: 1, retryAt: null },
        accountFromAddress: { failures: 1, retryAt: null },
        account: { failures: 4, retryAt: null },
      },
    });
  });

  it('leaves the account-wide bucket out from an address the account signed in from this month', () => {
    const delayedAccount = {
      ...fresh,
      failures: 40,
      lastFailureAt: now,
      retryAt: new Date(now.getTime() + 60_000),
    };
    const known = { ...fresh, signedInAt: ago(29 * day) };
    const fromKnown = decideLoginAttempt(
      { address: fresh, accountFromAddress: known, account: delayedAccount },
      now,
    );
    expect(fromKnown).toMatchObject({ outcome: 'reserved' });
    expect(fromKnown.outcome === 'reserved' && fromKnown.counted.account).toBeUndefined();
    const forgotten = { ...fresh, signedInAt: ago(31 * day) };
    expect(
      decideLoginAttempt(
        { address: fresh, accountFromAddress: forgotten, account: delayedAccount },
        now,
      ),
    ).toEqual({ outcome: 'refused', retryAfterMs: 60_000 });
  });

  it("caps each wait at its bucket's longest", () => {
    const decision = decideLoginAttempt(
      {
        address: fresh,
        accountFromAddress: fresh,
        account: { ...fresh, failures: 500, lastFailureAt: now },
      },
      now,
    );
    expect(decision.outcome === 'reserved' && decision.counted.account?.retryAt).toEqual(
      new Date(now.getTime() + account.maxDelayMs),
    );
  });
});
