import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from '@issuer/eventstore';
import type pg from 'pg';
import type { RegisteredUser } from './appProcess';

export interface BenchCompany {
  companyId: string;
  userId: string;
  token: string;
}

/** The company of each registered admin, from the `users` read model. */
export async function companiesOf(
  pool: pg.Pool,
  users: readonly RegisteredUser[],
): Promise<BenchCompany[]> {
  const { rows } = await pool.query<{ user_id: string; company_id: string }>(
    'SELECT user_id, company_id FROM users WHERE user_id = ANY($1)',
    [users.map((user) => user.userId)],
  );
  const byUser = new Map(rows.map((row) => [row.user_id, row.company_id]));
  return users.map((user) => ({ ...user, companyId: byUser.get(user.userId) ?? '' }));
}

/** What the operator's verify command appends, written through the store. */
export async function verifyCompanies(pool: pg.Pool, companies: readonly { companyId: string }[]) {
  const store = new PostgresEventStore(pool);
  for (const { companyId } of companies) {
    const at = new Date().toISOString();
    await store.appendToStream(
      `Company-${companyId}`,
      [
        {
          id: randomUUID(),
          type: 'CompanyVerified',
          data: { companyId, verifiedBy: 'bench', verifiedAt: at },
          metadata: {
            companyId,
            userId: null,
            correlationId: randomUUID(),
            causationId: null,
            occurredAt: at,
            schemaVersion: 1,
          },
        },
      ],
      { expectedRevision: 'stream_exists' },
    );
  }
}

/** Registers `count` payment terminals over HTTP (the admin's token); answers their ids. */
export async function registerTerminals(
  url: string,
  token: string,
  count: number,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const res = await fetch(`${url}/api/terminals`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `Counter ${i + 1}`,
        deviceId: `bench-${randomUUID().slice(0, 8)}`,
      }),
    });
    const body = (await res.json()) as { id?: string };
    if (res.status !== 201 || !body.id)
      throw new Error(`POST /api/terminals answered ${res.status}: ${JSON.stringify(body)}`);
    ids.push(body.id);
  }
  return ids;
}
