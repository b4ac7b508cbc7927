import { asFundingRoundEvent, fundingRoundEventTypes } from '@issuer/events';
import type { Projection } from '@issuer/projections';
import type { PoolClient } from 'pg';
import { type ExistingRound, evolveRound, isRound, offeredTokens, type Round } from './round';

/**
 * The funding rounds read model: one row per round with the columns lists sort and filter on,
 * the derived figures (tokens reserved and purchased, amount raised) kept from the round's own
 * events, and the state (folded with the write side's evolve) as jsonb. A row ignores events at
 * or before its position, so a replay changes nothing.
 */
const migration = `
CREATE TABLE IF NOT EXISTS funding_rounds (
  round_id text PRIMARY KEY,
  company_id text NOT NULL,
  name text NOT NULL,
  handle text NOT NULL,
  status text NOT NULL,
  share_class_id text NOT NULL,
  token_price_cents bigint NOT NULL,
  raise_amount_cents bigint NOT NULL,
  tokens_offered bigint NOT NULL,
  tokens_reserved bigint NOT NULL,
  tokens_purchased bigint NOT NULL,
  amount_raised_cents bigint NOT NULL,
  opens_at timestamptz NOT NULL,
  closes_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  state jsonb NOT NULL,
  position bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS funding_rounds_company_idx
  ON funding_rounds (company_id, created_at, round_id);
`;

interface Loaded {
  state: Round;
  position: bigint;
  updatedAt: string;
}

export const fundingRoundsProjection: Projection = {
  name: 'funding-rounds',
  handles: fundingRoundEventTypes,
  tables: ['funding_rounds'],
  async migrate(client) {
    await client.query(migration);
  },
  async apply(events, client) {
    const ids = [
      ...new Set(events.flatMap((event) => asFundingRoundEvent(event)?.data.roundId ?? [])),
    ];
    if (ids.length === 0) return;
    const rows = await load(client, ids);
    const changed = new Set<string>();
    for (const recorded of events) {
      const event = asFundingRoundEvent(recorded);
      if (!event) continue;
      const id = event.data.roundId;
      const row = rows.get(id);
      if (row && row.position >= recorded.position) continue;
      const state = evolveRound(row?.state ?? { status: 'none' }, event);
      rows.set(id, {
        state,
        position: recorded.position,
        updatedAt: recorded.metadata.occurredAt,
      });
      changed.add(id);
    }
    await save(
      client,
      [...changed].flatMap((id) => rows.get(id) ?? []),
    );
  },
};

async function load(client: PoolClient, ids: string[]): Promise<Map<string, Loaded>> {
  const { rows } = await client.query<{
    id: string;
    state: Round;
    position: string;
    updated_at: Date;
  }>(
    'SELECT round_id AS id, state, position::text, updated_at FROM funding_rounds WHERE round_id = ANY($1)',
    [ids],
  );
  return new Map(
    rows.map((row) => [
      row.id,
      {
        state: row.state,
        position: BigInt(row.position),
        updatedAt: row.updated_at.toISOString(),
      },
    ]),
  );
}

function record({ state, position, updatedAt }: Loaded & { state: ExistingRound }) {
  return {
    roundId: state.roundId,
    companyId: state.companyId,
    name: state.terms.name,
    handle: state.terms.handle,
    status: state.status,
    shareClassId: state.terms.shareClassId,
    tokenPriceCents: state.terms.tokenPriceCents,
    raiseAmountCents: state.terms.raiseAmountCents,
    tokensOffered: offeredTokens(state.terms),
    tokensReserved: state.reserved,
    tokensPurchased: state.sold,
    amountRaisedCents: state.soldCents,
    opensAt: state.terms.opensAt,
    closesAt: state.terms.closesAt,
    createdAt: state.createdAt,
    updatedAt,
    state,
    position: position.toString(),
  };
}

async function save(client: PoolClient, rows: Loaded[]) {
  const records = rows.flatMap((row) =>
    isRound(row.state) ? [record({ ...row, state: row.state })] : [],
  );
  if (records.length === 0) return;
  await client.query(
    `INSERT INTO funding_rounds AS t (round_id, company_id, name, handle, status, share_class_id,
       token_price_cents, raise_amount_cents, tokens_offered, tokens_reserved, tokens_purchased,
       amount_raised_cents, opens_at, closes_at, created_at, updated_at, state, position)
     SELECT r."roundId", r."companyId", r.name, r.handle, r.status, r."shareClassId",
            r."tokenPriceCents", r."raiseAmountCents", r."tokensOffered", r."tokensReserved",
            r."tokensPurchased", r."amountRaisedCents", r."opensAt", r."closesAt", r."createdAt",
            r."updatedAt", r.state, r.position
       FROM jsonb_to_recordset($1::jsonb) AS r("roundId" text, "companyId" text, name text,
            handle text, status text, "shareClassId" text, "tokenPriceCents" bigint,
            "raiseAmountCents" bigint, "tokensOffered" bigint, "tokensReserved" bigint,
            "tokensPurchased" bigint, "amountRaisedCents" bigint, "opensAt" timestamptz,
            "closesAt" timestamptz, "createdAt" timestamptz, "updatedAt" timestamptz,
            state jsonb, position bigint)
     ON CONFLICT (round_id) DO UPDATE SET name = EXCLUDED.name, handle = EXCLUDED.handle,
       status = EXCLUDED.status, share_class_id = EXCLUDED.share_class_id,
       token_price_cents = EXCLUDED.token_price_cents,
       raise_amount_cents = EXCLUDED.raise_amount_cents, tokens_offered = EXCLUDED.tokens_offered,
       tokens_reserved = EXCLUDED.tokens_reserved, tokens_purchased = EXCLUDED.tokens_purchased,
       amount_raised_cents = EXCLUDED.amount_raised_cents, opens_at = EXCLUDED.opens_at,
       closes_at = EXCLUDED.closes_at, updated_at = EXCLUDED.updated_at, state = EXCLUDED.state,
       position = EXCLUDED.position
     WHERE t.position < EXCLUDED.position`,
    [JSON.stringify(records)],
  );
}
