import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Jepsen's three outcomes: `ok` (2xx: it happened), `failed` (4xx: it certainly did not), and
 * `unknown` (5xx, a reset, a timeout: it may or may not have happened).
 */
export type Outcome = 'ok' | 'failed' | 'unknown';

export type OperationKind =
  | 'register'
  | 'verify'
  | 'addCustomer'
  | 'duplicateCustomer'
  | 'investorStatus'
  | 'forbiddenStatus'
  | 'payment'
  | 'presentCard';

export interface Operation {
  kind: OperationKind;
  outcome: Outcome;
  /** HTTP status; 0 when no answer came. */
  status: number;
  /** Who answered: the API (the JSON error shape), nginx (its HTML page), or nobody. */
  answeredBy: 'api' | 'nginx' | 'none';
  errorCode?: string;
  startedAt: number;
  endedAt: number;
  company?: Company;
  /** The customer's or payment's id; for a status change the customer's. */
  id?: string;
  /** The email of a customer add, the status of a status change, a company's symbol. */
  value?: string;
}

export interface Company {
  symbol: string;
  email: string;
  token?: string;
  companyId?: string;
}

interface Answer {
  op: Operation;
  body: Record<string, unknown> | undefined;
}

const requestTimeoutMs = 30_000;
export const password = 'cluster-load-password-1';

export class LoadClient {
  readonly history: Operation[] = [];

  constructor(readonly baseUrl: string) {}

  async call(
    kind: OperationKind,
    method: string,
    path: string,
    init: { token?: string; body?: unknown; company?: Company; id?: string; value?: string },
  ): Promise<Answer> {
    const startedAt = Date.now();
    const op: Operation = {
      kind,
      outcome: 'unknown',
      status: 0,
      answeredBy: 'none',
      startedAt,
      endedAt: startedAt,
      company: init.company,
      id: init.id,
      value: init.value,
    };
    let body: Record<string, unknown> | undefined;
    try {
      const res = await fetch(`${this.baseUrl}/api${path}`, {
        method,
        headers: {
          'content-type': 'application/json',
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
      op.status = res.status;
      const text = await res.text();
      const json = res.headers.get('content-type')?.includes('application/json');
      op.answeredBy = json ? 'api' : 'nginx';
      body = json && text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
      const error = body?.error as { code?: string } | undefined;
      op.errorCode = error?.code;
      op.outcome = res.status < 300 ? 'ok' : res.status < 500 ? 'failed' : 'unknown';
    } catch {
      op.outcome = 'unknown';
    }
    op.endedAt = Date.now();
    this.history.push(op);
    return { op, body };
  }

  /** Reads are not part of the history. */
  async read(path: string, token: string): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${this.baseUrl}/api${path}`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  async signIn(email: string, secret: string): Promise<string | undefined> {
    const res = await fetch(`${this.baseUrl}/api/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: secret }),
      signal: AbortSignal.timeout(requestTimeoutMs),
    }).catch(() => undefined);
    if (!res?.ok) return undefined;
    return ((await res.json()) as { access_token: string }).access_token;
  }
}

export interface LoadOptions {
  client: LoadClient;
  operatorToken: string;
  workers: number;
  until: () => boolean;
  /** Customers per company before the worker registers the next one. */
  customersPerCompany: number;
}

/** Each worker registers a company, has the operator verify it, then adds and moves customers and takes payments. */
export async function runLoad(options: LoadOptions): Promise<void> {
  const run = randomBytes(2).toString('hex').toUpperCase();
  await Promise.all(
    Array.from({ length: options.workers }, (_, worker) =>
      workerLoop(options, `${run}${worker.toString(36).toUpperCase()}`),
    ),
  );
}

async function workerLoop(options: LoadOptions, prefix: string): Promise<void> {
  for (let n = 0; !options.until(); n += 1) {
    const company = await readyCompany(options, `${prefix}${n.toString(36).toUpperCase()}`);
    if (!company) {
      await sleep(300);
      continue;
    }
    const terminalId = await newTerminal(options.client, company);
    for (let c = 0; c < options.customersPerCompany && !options.until(); c += 1) {
      await customerRound(options.client, company, c);
      if (terminalId) await paymentRound(options.client, company, terminalId);
    }
  }
}

/** Registered, found by the operator, verified, signed in again (a verified company's token). */
async function readyCompany(options: LoadOptions, suffix: string): Promise<Company | undefined> {
  const { client, operatorToken } = options;
  const company: Company = {
    symbol: `C${suffix}`.slice(0, 10),
    email: `${suffix.toLowerCase()}@cluster.test`,
  };
  const registered = await client.call('register', 'POST', '/auth/register', {
    company,
    value: company.symbol,
    body: {
      companyName: `Cluster ${company.symbol}`,
      companySymbol: company.symbol,
      email: company.email,
      password,
      confirm: password,
    },
  });
  if (registered.op.outcome !== 'ok') return undefined;
  for (let attempt = 0; attempt < 20 && !company.companyId; attempt += 1) {
    const filter = encodeURIComponent(JSON.stringify({ q: company.symbol }));
    const found = await client
      .read(`/operator/companies?filter=${filter}`, operatorToken)
      .catch(() => undefined);
    const rows = Array.isArray(found?.body) ? (found.body as { id: string; symbol: string }[]) : [];
    // The search matches substrings: C1A also finds C1A0, registered later by the same worker.
    company.companyId = rows.find((row) => row.symbol === company.symbol)?.id;
    if (!company.companyId) await sleep(500);
  }
  if (!company.companyId) return undefined;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const verified = await client.call(
      'verify',
      'POST',
      `/operator/companies/${company.companyId}/verify`,
      {
        token: operatorToken,
        company,
      },
    );
    if (verified.op.outcome === 'ok' || verified.op.status === 409) break;
    await sleep(500);
  }
  for (let attempt = 0; attempt < 10 && !company.token; attempt += 1) {
    company.token = await client.signIn(company.email, password);
    if (!company.token) await sleep(500);
  }
  if (!company.token || !(await seenVerified(client, company.token))) return undefined;
  return company;
}

/**
 * Waits until the company's own requests find it verified. The operator's verify can answer
 * while the read models are catching up (`X-Read-Models: catching-up`, say during a projections
 * failover); until they apply it, the API truthfully refuses the company's commands with 403
 * company_not_verified, as it would a person's who started before the verification showed.
 */
async function seenVerified(client: LoadClient, token: string): Promise<boolean> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const { status } = await client
      .read('/customers?range=[0,0]', token)
      .catch(() => ({ status: 0 }));
    if (status === 200) return true;
    await sleep(250);
  }
  return false;
}

async function newTerminal(client: LoadClient, company: Company): Promise<string | undefined> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const res = await fetch(`${client.baseUrl}/api/terminals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${company.token}` },
      body: JSON.stringify({ name: 'Front desk', deviceId: `till-${company.symbol}` }),
      signal: AbortSignal.timeout(requestTimeoutMs),
    }).catch(() => undefined);
    if (res?.ok) return ((await res.json()) as { id: string }).id;
    await sleep(500);
  }
  return undefined;
}

const statusPath = ['Registered with the product', 'KYC Complete'] as const;

/**
 * A customer added and moved along the workflow; every fifth also an add with the same email
 * (refused: the email is taken) and a move the workflow forbids (refused: 409).
 */
async function customerRound(client: LoadClient, company: Company, c: number): Promise<void> {
  const email = `customer-${c}-${company.symbol.toLowerCase()}@cluster.test`;
  const added = await client.call('addCustomer', 'POST', '/customers', {
    token: company.token,
    company,
    value: email,
    body: { email, name: 'Load', lastName: `Customer ${c}` },
  });
  const id = added.body?.id as string | undefined;
  if (added.op.outcome !== 'ok' || !id) return pause(added.op);
  added.op.id = id;
  for (const status of statusPath) {
    const moved = await client.call('investorStatus', 'POST', `/customers/${id}/investor-status`, {
      token: company.token,
      company,
      id,
      value: status,
      body: { status },
    });
    if (moved.op.outcome !== 'ok') return pause(moved.op);
  }
  if (c % 5 !== 0) return;
  await client.call('duplicateCustomer', 'POST', '/customers', {
    token: company.token,
    company,
    value: email,
    body: { email },
  });
  await client.call('forbiddenStatus', 'POST', `/customers/${id}/investor-status`, {
    token: company.token,
    company,
    id,
    value: 'Complete',
    body: { status: 'Complete' },
  });
}

async function paymentRound(
  client: LoadClient,
  company: Company,
  terminalId: string,
): Promise<void> {
  const created = await client.call('payment', 'POST', '/payments', {
    token: company.token,
    company,
    body: { terminalId, amountCents: 1250, currency: 'CAD' },
  });
  const id = created.body?.id as string | undefined;
  if (created.op.outcome !== 'ok' || !id) return pause(created.op);
  created.op.id = id;
  const presented = await client.call(
    'presentCard',
    'POST',
    `/terminals/${terminalId}/simulator/present-card`,
    {
      token: company.token,
      company,
      id,
      body: { paymentId: id },
    },
  );
  if (presented.op.outcome !== 'ok') await pause(presented.op);
}

/** After a failure the service may be restarting: do not spin. */
async function pause(op: Operation): Promise<void> {
  if (op.outcome !== 'ok') await sleep(250);
}
