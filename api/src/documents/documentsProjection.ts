import {
  asDocumentEvent,
  asSignatureRequestEvent,
  documentEventTypes,
  type RecordedEvent,
  signatureRequestEventTypes,
} from '@issuer/events';
import type { Projection } from '@issuer/projections';
import type { PoolClient } from 'pg';
import { currentVersion, type Document, evolveDocument, isDocument } from './document';
import {
  evolveSignatureRequest,
  isSignatureRequest,
  type SignatureRequest,
} from './signatureRequest';

/**
 * The documents read model: one row per document and per signature request, each keeping its
 * aggregate's state as jsonb (folded with the write side's own evolve functions) beside the
 * columns lists sort and filter on. Rows ignore events at or before their position, so a replay
 * changes nothing. The bytes are not here: they are in the document storage.
 */
const migration = `
CREATE TABLE IF NOT EXISTS documents (
  document_id text PRIMARY KEY,
  company_id text NOT NULL,
  title text NOT NULL,
  status text NOT NULL,
  customer_id text,
  round_id text,
  media_type text NOT NULL,
  size_bytes bigint NOT NULL,
  version int NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  state jsonb NOT NULL,
  position bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS documents_company_idx
  ON documents (company_id, status, updated_at, document_id);
CREATE TABLE IF NOT EXISTS signature_requests (
  request_id text PRIMARY KEY,
  company_id text NOT NULL,
  customer_id text NOT NULL,
  round_id text,
  status text NOT NULL,
  expires_at timestamptz NOT NULL,
  requested_at timestamptz NOT NULL,
  document_ids text[] NOT NULL,
  state jsonb NOT NULL,
  position bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS signature_requests_company_idx
  ON signature_requests (company_id, requested_at, request_id);
CREATE INDEX IF NOT EXISTS signature_requests_customer_idx
  ON signature_requests (customer_id, round_id);
CREATE INDEX IF NOT EXISTS signature_requests_open_idx
  ON signature_requests (expires_at) WHERE status IN ('sent', 'viewed');
`;

interface Loaded<State> {
  state: State;
  position: bigint;
}

export const documentsProjection: Projection = {
  name: 'documents',
  handles: [...documentEventTypes, ...signatureRequestEventTypes],
  tables: ['documents', 'signature_requests'],
  async migrate(client) {
    await client.query(migration);
  },
  async apply(events, client) {
    const documents = await load<Document>(
      client,
      'documents',
      'document_id',
      idsOf(events, 'documentId'),
    );
    const requests = await load<SignatureRequest>(
      client,
      'signature_requests',
      'request_id',
      idsOf(events, 'requestId'),
    );
    const changedDocuments = new Set<string>();
    const changedRequests = new Set<string>();
    for (const recorded of events) {
      const documentEvent = asDocumentEvent(recorded);
      if (documentEvent) {
        const id = documentEvent.data.documentId;
        const row = documents.get(id);
        if (row && row.position >= recorded.position) continue;
        const state = evolveDocument(row?.state ?? { status: 'none' }, documentEvent);
        documents.set(id, { state, position: recorded.position });
        changedDocuments.add(id);
        continue;
      }
      const requestEvent = asSignatureRequestEvent(recorded);
      if (!requestEvent) continue;
      const id = requestEvent.data.requestId;
      const row = requests.get(id);
      if (row && row.position >= recorded.position) continue;
      const state = evolveSignatureRequest(row?.state ?? { status: 'none' }, requestEvent);
      requests.set(id, { state, position: recorded.position });
      changedRequests.add(id);
    }
    await saveDocuments(client, pick(documents, changedDocuments));
    await saveRequests(client, pick(requests, changedRequests));
  },
};

function pick<State>(rows: Map<string, Loaded<State>>, ids: Set<string>): Loaded<State>[] {
  return [...ids].flatMap((id) => {
    const row = rows.get(id);
    return row ? [row] : [];
  });
}

function idsOf(events: readonly RecordedEvent[], field: 'documentId' | 'requestId'): string[] {
  const ids = new Set<string>();
  for (const event of events) {
    const id = (event.data as Record<string, unknown> | null)?.[field];
    if (typeof id === 'string') ids.add(id);
  }
  return [...ids];
}

async function load<State>(
  client: PoolClient,
  table: string,
  idColumn: string,
  ids: string[],
): Promise<Map<string, Loaded<State>>> {
  const loaded = new Map<string, Loaded<State>>();
  if (ids.length === 0) return loaded;
  const { rows } = await client.query<{ id: string; state: State; position: string }>(
    `SELECT ${idColumn} AS id, state, position::text FROM ${table} WHERE ${idColumn} = ANY($1)`,
    [ids],
  );
  for (const row of rows) loaded.set(row.id, { state: row.state, position: BigInt(row.position) });
  return loaded;
}

async function saveDocuments(client: PoolClient, rows: Loaded<Document>[]) {
  const records = rows.flatMap(({ state, position }) => {
    if (!isDocument(state)) return [];
    const current = currentVersion(state);
    return [
      {
        documentId: state.documentId,
        companyId: state.companyId,
        title: state.title,
        status: state.status,
        customerId: state.customerId,
        roundId: state.roundId,
        mediaType: current.mediaType,
        sizeBytes: current.sizeBytes,
        version: current.version,
        createdAt: state.createdAt,
        updatedAt: state.removedAt ?? current.uploadedAt,
        state,
        position: position.toString(),
      },
    ];
  });
  if (records.length === 0) return;
  await client.query(
    `INSERT INTO documents AS t (document_id, company_id, title, status, customer_id, round_id,
       media_type, size_bytes, version, created_at, updated_at, state, position)
     SELECT r."documentId", r."companyId", r.title, r.status, r."customerId", r."roundId",
            r."mediaType", r."sizeBytes", r.version, r."createdAt", r."updatedAt", r.state, r.position
       FROM jsonb_to_recordset($1::jsonb) AS r("documentId" text, "companyId" text, title text,
            status text, "customerId" text, "roundId" text, "mediaType" text, "sizeBytes" bigint,
            version int, "createdAt" timestamptz, "updatedAt" timestamptz, state jsonb,
            position bigint)
     ON CONFLICT (document_id) DO UPDATE SET title = EXCLUDED.title, status = EXCLUDED.status,
       media_type = EXCLUDED.media_type, size_bytes = EXCLUDED.size_bytes,
       version = EXCLUDED.version, updated_at = EXCLUDED.updated_at, state = EXCLUDED.state,
       position = EXCLUDED.position
     WHERE t.position < EXCLUDED.position`,
    [JSON.stringify(records)],
  );
}

async function saveRequests(client: PoolClient, rows: Loaded<SignatureRequest>[]) {
  const records = rows.flatMap(({ state, position }) =>
    isSignatureRequest(state)
      ? [
          {
            requestId: state.requestId,
            companyId: state.companyId,
            customerId: state.customerId,
            roundId: state.roundId,
            status: state.status,
            expiresAt: state.expiresAt,
            requestedAt: state.requestedAt,
            documentIds: state.documents.map((document) => document.documentId),
            state,
            position: position.toString(),
          },
        ]
      : [],
  );
  if (records.length === 0) return;
  await client.query(
    `INSERT INTO signature_requests AS t (request_id, company_id, customer_id, round_id, status,
       expires_at, requested_at, document_ids, state, position)
     SELECT r."requestId", r."companyId", r."customerId", r."roundId", r.status, r."expiresAt",
            r."requestedAt", ARRAY(SELECT jsonb_array_elements_text(r."documentIds")), r.state,
            r.position
       FROM jsonb_to_recordset($1::jsonb) AS r("requestId" text, "companyId" text,
            "customerId" text, "roundId" text, status text, "expiresAt" timestamptz,
            "requestedAt" timestamptz, "documentIds" jsonb, state jsonb, position bigint)
     ON CONFLICT (request_id) DO UPDATE SET status = EXCLUDED.status, state = EXCLUDED.state,
       position = EXCLUDED.position
     WHERE t.position < EXCLUDED.position`,
    [JSON.stringify(records)],
  );
}
