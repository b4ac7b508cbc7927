import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort, waitFor200 } from './net';
import { spawnGroup } from './processGroup';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface AppProcess {
  url: string;
  /** The Node process that runs api/src/main.ts. */
  pid: number;
  stop(): Promise<void>;
}

/**
 * The real API exactly as `npm start` wires it (api/src/main.ts: config, infrastructure, the
 * projectors in the same process), pointed at a bench database through DATABASE_URL, in its own
 * process so it does not share a core with the load generator. Logs go nowhere (at the default
 * level, so the per-request log line is still written).
 */
export async function startApp(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<AppProcess> {
  const port = await freePort();
  const app = spawnGroup(process.execPath, ['--import', 'tsx', 'api/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      TOKEN_SECRET: randomBytes(48).toString('base64url'),
      PORT: String(port),
      ...env,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor200(`${url}/api/health`, {
      timeoutMs: 60_000,
      intervalMs: 50,
      stillAlive: () => !app.exited(),
    });
  } catch (error) {
    await app.stop();
    throw new Error(
      `the app did not start: ${error instanceof Error ? error.message : String(error)}\n${app.output()}`,
    );
  }
  const pid = app.child.pid;
  if (pid === undefined) throw new Error('the app has no pid');
  return {
    url,
    pid,
    stop: async () => {
      await app.stop();
    },
  };
}

export interface RegisteredUser {
  userId: string;
  token: string;
}

/** Registers `count` companies (each with its admin user) over HTTP, a few at a time. */
export async function registerUsers(url: string, count: number): Promise<RegisteredUser[]> {
  const users: RegisteredUser[] = [];
  const run = randomUUID()
    .slice(0, 4)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, 'X');
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      users.push(await register(url, run, index));
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return users;
}

async function register(url: string, run: string, index: number): Promise<RegisteredUser> {
  const email = `bench-${run.toLowerCase()}-${index}@bench.example`;
  const password = `bench-${randomUUID()}`;
  const registered = await postJson(`${url}/api/auth/register`, {
    companyName: `Bench Company ${run} ${index}`,
    companySymbol: `${run}${index}`.slice(0, 10),
    email,
    password,
  });
  if (registered.status === 200 && hasToken(registered.body)) return session(registered.body);
  // With READ_YOUR_WRITES_TIMEOUT_MS=0 the account exists but its views may lag: sign in instead.
  if (registered.status !== 503) throw unexpected('register', registered);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const login = await postJson(`${url}/api/auth`, { email, password });
    if (login.status === 200 && hasToken(login.body)) return session(login.body);
    if (login.status !== 503 || Date.now() > deadline) throw unexpected('login', login);
    await delay(20);
  }
}

async function postJson(url: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: await response.json() };
}

function unexpected(what: string, answer: { status: number; body: unknown }): Error {
  return new Error(
    `${what} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`,
  );
}

function session(body: { access_token: string }): RegisteredUser {
  return { token: body.access_token, userId: tokenSubject(body.access_token) };
}

function hasToken(body: unknown): body is { access_token: string } {
  return (
    typeof body === 'object' &&
    body !== null &&
    'access_token' in body &&
    typeof body.access_token === 'string'
  );
}

/** The token's `sub` (the user id); the bench only reads it, the app verifies tokens. */
function tokenSubject(token: string): string {
  const payload: unknown = JSON.parse(
    Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'),
  );
  if (typeof payload === 'object' && payload !== null && 'sub' in payload) {
    if (typeof payload.sub === 'string') return payload.sub;
  }
  throw new Error('access token without sub');
}

/** The body of `POST /api/auth/user/update` as the seed's client sends it. */
export function userUpdateBody(counter: number): string {
  return JSON.stringify({
    user: {
      role: ['admin'],
      from: 'jwt',
      data: {
        settings: { layout: { type: 'vertical', navbar: 'fixed' }, theme: 'dark', counter },
        shortcuts: ['calendar', 'mail', 'contacts', 'todo'],
      },
    },
  });
}
