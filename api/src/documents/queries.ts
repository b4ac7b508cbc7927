import { documentMediaType } from '@issuer/events';
import type { Pool } from 'pg';
import { z } from 'zod';
import { currentVersion, type DocumentDetails } from './document';
import {
  type SignatureRequestDetails,
  type SignatureStatus,
  signatureStatuses,
} from './signatureRequest';

export const documentSortFields = {
  updatedAt: 'updated_at',
  createdAt: 'created_at',
  title: 'title',
  sizeBytes: 'size_bytes',
} as const;
export type DocumentSortField = keyof typeof documentSortFields;

export const signatureRequestSortFields = {
  requestedAt: 'requested_at',
  expiresAt: 'expires_at',
  status: 'status',
} as const;
export type SignatureRequestSortField = keyof typeof signatureRequestSortFields;

interface Window<Field extends string> {
  sort: { field: Field; order: 'ASC' | 'DESC' };
  range: { start: number; end: number };
}

export interface DocumentFilter {
  status?: ('active' | 'removed')[];
  customerId?: string;
  roundId?: string;
  q?: string;
  id?: readonly string[];
}

export interface SignatureRequestFilter {
  status?: SignatureStatus[];
  customerId?: string;
  documentId?: string;
  id?: readonly string[];
}

const customerName = `(SELECT nullif(trim(c.name || ' ' || c.last_name), '') FROM customers c
  WHERE c.customer_id = t.customer_id AND c.company_id = t.company_id)`;

const documentVersionSchema = z.strictObject({
  version: z.int(),
  fileName: z.string(),
  mediaType: documentMediaType,
  sizeBytes: z.int(),
  sha256: z.string(),
  uploadedBy: z.string(),
  uploadedAt: z.string(),
});

/** The Document resource: the current version's file, and every version, newest first. */
export const documentResourceSchema = z
  .strictObject({
    id: z.string(),
    title: z.string(),
    status: z.enum(['active', 'removed']),
    customerId: z.string().nullable(),
    customerName: z.string().nullable(),
    roundId: z.string().nullable(),
    fileName: z.string(),
    mediaType: documentMediaType,
    sizeBytes: z.int(),
    sha256: z.string(),
    version: z.int().meta({ description: 'The current version' }),
    createdAt: z.string(),
    updatedAt: z.string(),
    removedAt: z.string().nullable(),
    versions: z.array(documentVersionSchema),
  })
  .meta({ id: 'Document' });
export type DocumentResource = z.infer<typeof documentResourceSchema>;

export function toDocumentResource(
  state: DocumentDetails & { status: DocumentResource['status'] },
  name: string | null,
): DocumentResource {
  const current = currentVersion(state);
  return {
    id: state.documentId,
    title: state.title,
    status: state.status,
    customerId: state.customerId,
    customerName: name,
    roundId: state.roundId,
    fileName: current.fileName,
    mediaType: current.mediaType,
    sizeBytes: current.sizeBytes,
    sha256: current.sha256,
    version: current.version,
    createdAt: state.createdAt,
    updatedAt: state.removedAt ?? current.uploadedAt,
    removedAt: state.removedAt,
    versions: [...state.versions].reverse(),
  };
}

/** The SignatureRequest resource: an envelope of document versions sent to a customer. */
export const signatureRequestResourceSchema = z
  .strictObject({
    id: z.string(),
    status: z.enum(signatureStatuses),
    customerId: z.string(),
    customerName: z.string().nullable(),
    roundId: z.string().nullable(),
    documents: z.array(
      z.strictObject({
        documentId: z.string(),
        version: z.int(),
        title: z.string(),
        sha256: z.string(),
      }),
    ),
    message: z.string().nullable(),
    expiresAt: z.string(),
    requestedBy: z.string(),
    requestedAt: z.string(),
    viewedAt: z.string().nullable(),
    signedAt: z.string().nullable(),
    signerName: z.string().nullable(),
    declinedAt: z.string().nullable(),
    declineReason: z.string().nullable(),
    closedAt: z.string().nullable(),
    signingPath: z.string().nullable().meta({
      description: 'The signer’s link, only while they can still act (it is a credential)',
    }),
  })
  .meta({ id: 'SignatureRequest' });
export type SignatureRequestResource = z.infer<typeof signatureRequestResourceSchema>;

export function toSignatureRequestResource(
  state: SignatureRequestDetails & { status: SignatureStatus },
  name: string | null,
  signingPath: string,
): SignatureRequestResource {
  const open = state.status === 'sent' || state.status === 'viewed';
  return {
    id: state.requestId,
    status: state.status,
    customerId: state.customerId,
    customerName: name,
    roundId: state.roundId,
    documents: state.documents,
    message: state.message,
    expiresAt: state.expiresAt,
    requestedBy: state.requestedBy,
    requestedAt: state.requestedAt,
    viewedAt: state.viewed?.at ?? null,
    signedAt: state.signed?.at ?? null,
    signerName: state.signed?.signerName ?? null,
    declinedAt: state.declined?.at ?? null,
    declineReason: state.declined?.reason ?? null,
    closedAt: state.closedAt,
    /** Only while the signer can still act; the link is a credential. */
    signingPath: open ? signingPath : null,
  };
}

function where(conditions: string[]) {
  return conditions.length > 0 ? `AND ${conditions.join(' AND ')}` : '';
}

export async function listDocuments(
  pool: Pool,
  companyId: string,
  { sort, range, filter }: Window<DocumentSortField> & { filter: DocumentFilter },
) {
  const params: unknown[] = [companyId];
  const conditions: string[] = [];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  if (filter.id) add((n) => `document_id = ANY(${n})`, filter.id);
  else add((n) => `status = ANY(${n})`, filter.status ?? ['active']);
  if (filter.customerId) add((n) => `customer_id = ${n}`, filter.customerId);
  if (filter.roundId) add((n) => `round_id = ${n}`, filter.roundId);
  if (filter.q) add((n) => `title ILIKE ${n}`, `%${filter.q.replace(/[\\%_]/g, '\\$&')}%`);
  const column = documentSortFields[sort.field];
  params.push(range.end - range.start + 1, range.start);
  const { rows } = await pool.query<{
    state: DocumentDetails & { status: DocumentResource['status'] };
    customer_name: string | null;
    total: string;
  }>(
    `SELECT t.state, ${customerName} AS customer_name, count(*) OVER () AS total
       FROM documents t WHERE company_id = $1 ${where(conditions)}
      ORDER BY ${column} ${sort.order}, document_id ${sort.order}
      LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  const total = rows[0] ? Number(rows[0].total) : await countDocuments(pool, params, conditions);
  return { rows: rows.map((row) => toDocumentResource(row.state, row.customer_name)), total };
}

async function countDocuments(pool: Pool, params: unknown[], conditions: string[]) {
  const { rows } = await pool.query<{ total: string }>(
    `SELECT count(*) AS total FROM documents t WHERE company_id = $1 ${where(conditions)}`,
    params.slice(0, -2),
  );
  return Number(rows[0]?.total ?? 0);
}

export async function getDocument(pool: Pool, companyId: string, documentId: string) {
  const { rows } = await pool.query<{
    state: DocumentDetails & { status: DocumentResource['status'] };
    customer_name: string | null;
  }>(
    `SELECT t.state, ${customerName} AS customer_name FROM documents t
      WHERE document_id = $1 AND company_id = $2`,
    [documentId, companyId],
  );
  const row = rows[0];
  return row ? toDocumentResource(row.state, row.customer_name) : undefined;
}

type RequestRow = {
  state: SignatureRequestDetails & { status: SignatureStatus };
  customer_name: string | null;
};

export async function listSignatureRequests(
  pool: Pool,
  companyId: string,
  { sort, range, filter }: Window<SignatureRequestSortField> & { filter: SignatureRequestFilter },
  signingPathOf: (requestId: string) => string,
) {
  const params: unknown[] = [companyId];
  const conditions: string[] = [];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  if (filter.id) add((n) => `request_id = ANY(${n})`, filter.id);
  if (filter.status) add((n) => `status = ANY(${n})`, filter.status);
  if (filter.customerId) add((n) => `customer_id = ${n}`, filter.customerId);
  if (filter.documentId) add((n) => `${n} = ANY(document_ids)`, filter.documentId);
  const column = signatureRequestSortFields[sort.field];
  const countParams = [...params];
  params.push(range.end - range.start + 1, range.start);
  const [page, count] = await Promise.all([
    pool.query<RequestRow>(
      `SELECT t.state, ${customerName} AS customer_name
         FROM signature_requests t WHERE company_id = $1 ${where(conditions)}
        ORDER BY ${column} ${sort.order}, request_id ${sort.order}
        LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    ),
    pool.query<{ total: string }>(
      `SELECT count(*) AS total FROM signature_requests t WHERE company_id = $1 ${where(conditions)}`,
      countParams,
    ),
  ]);
  return {
    rows: page.rows.map((row) =>
      toSignatureRequestResource(row.state, row.customer_name, signingPathOf(row.state.requestId)),
    ),
    total: Number(count.rows[0]?.total ?? 0),
  };
}

export async function getSignatureRequestRow(pool: Pool, companyId: string, requestId: string) {
  const { rows } = await pool.query<RequestRow>(
    `SELECT t.state, ${customerName} AS customer_name FROM signature_requests t
      WHERE request_id = $1 AND company_id = $2`,
    [requestId, companyId],
  );
  return rows[0];
}

/**
 * Whether every document sent to this customer for this round (in requests neither cancelled nor
 * expired) is signed in some request: then the customer's documents are signed.
 */
export async function allSentDocumentsSigned(
  pool: Pool,
  companyId: string,
  customerId: string,
  roundId: string | null,
): Promise<boolean> {
  const { rows } = await pool.query<{ unsigned: string; sent: string }>(
    `WITH sent AS (
       SELECT unnest(document_ids) AS document_id, status FROM signature_requests
        WHERE company_id = $1 AND customer_id = $2 AND round_id IS NOT DISTINCT FROM $3
          AND status NOT IN ('cancelled', 'expired'))
     SELECT count(DISTINCT document_id) FILTER (WHERE document_id NOT IN
              (SELECT document_id FROM sent WHERE status = 'signed')) AS unsigned,
            count(*) AS sent
       FROM sent`,
    [companyId, customerId, roundId],
  );
  const row = rows[0];
  return row !== undefined && Number(row.sent) > 0 && Number(row.unsigned) === 0;
}
