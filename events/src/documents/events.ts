import { z } from 'zod';

/**
 * Events of documents and their e-signatures. Two kinds of stream:
 * - `Document-<documentId>`: a file of the company, its versions and its removal. The bytes live
 *   in the document storage, addressed by their SHA-256; events name the hash, never the bytes;
 * - `SignatureRequest-<requestId>`: an envelope of one or more documents (each pinned to a
 *   version and its hash) sent to one customer, and what the signer did with it.
 * The signing link is derived from the request id with a server secret, so no event holds it.
 * Names and fields are stable forever: add optional fields only.
 */

export const documentMediaTypes = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export const documentMediaType = z.enum(documentMediaTypes);
export type DocumentMediaType = (typeof documentMediaTypes)[number];

const time = z.string();

/** One stored file: what a version of a document is. */
export const documentFile = {
  fileName: z.string(),
  mediaType: documentMediaType,
  sizeBytes: z.number().int(),
  sha256: z.string(),
};

const document = { documentId: z.string(), companyId: z.string() };

export const documentUploadedData = z.object({
  ...document,
  ...documentFile,
  title: z.string(),
  customerId: z.string().nullable(),
  /** A funding round's id, kept as given until rounds exist to check it against. */
  roundId: z.string().nullable(),
  uploadedBy: z.string(),
  uploadedAt: time,
});
/** A new version replaces the current one; the earlier versions stay downloadable. */
export const documentVersionAddedData = z.object({
  ...document,
  ...documentFile,
  version: z.number().int(),
  uploadedBy: z.string(),
  uploadedAt: time,
});
export const documentRemovedData = z.object({
  ...document,
  reason: z.string().nullable(),
  removedBy: z.string(),
  removedAt: time,
});

/** A document as the envelope sent it: the version and its hash the signer sees and signs. */
export const envelopeDocument = z.object({
  documentId: z.string(),
  version: z.number().int(),
  title: z.string(),
  sha256: z.string(),
});
export type EnvelopeDocument = z.infer<typeof envelopeDocument>;

const request = { requestId: z.string(), companyId: z.string() };
/** Where a signer acted from: recorded for the audit trail. */
const signerContext = { ip: z.string(), userAgent: z.string() };

export const signatureRequestedData = z.object({
  ...request,
  customerId: z.string(),
  roundId: z.string().nullable(),
  documents: z.array(envelopeDocument),
  message: z.string().nullable(),
  expiresAt: time,
  requestedBy: z.string(),
  requestedAt: time,
});
export const signatureRequestViewedData = z.object({
  ...request,
  ...signerContext,
  viewedAt: time,
});
export const signatureRequestSignedData = z.object({
  ...request,
  ...signerContext,
  /** The name the signer typed. */
  signerName: z.string(),
  consent: z.literal(true),
  documents: z.array(envelopeDocument),
  signedAt: time,
});
export const signatureRequestDeclinedData = z.object({
  ...request,
  ...signerContext,
  reason: z.string().nullable(),
  declinedAt: time,
});
export const signatureRequestExpiredData = z.object({ ...request, expiredAt: time });
export const signatureRequestCancelledData = z.object({
  ...request,
  cancelledBy: z.string(),
  cancelledAt: time,
});

type Event<Type extends string, Schema extends z.ZodType> = { type: Type; data: z.infer<Schema> };

export type DocumentUploaded = Event<'DocumentUploaded', typeof documentUploadedData>;
export type DocumentVersionAdded = Event<'DocumentVersionAdded', typeof documentVersionAddedData>;
export type DocumentRemoved = Event<'DocumentRemoved', typeof documentRemovedData>;
export type DocumentEvent = DocumentUploaded | DocumentVersionAdded | DocumentRemoved;

export type SignatureRequested = Event<'SignatureRequested', typeof signatureRequestedData>;
export type SignatureRequestViewed = Event<
  'SignatureRequestViewed',
  typeof signatureRequestViewedData
>;
export type SignatureRequestSigned = Event<
  'SignatureRequestSigned',
  typeof signatureRequestSignedData
>;
export type SignatureRequestDeclined = Event<
  'SignatureRequestDeclined',
  typeof signatureRequestDeclinedData
>;
export type SignatureRequestExpired = Event<
  'SignatureRequestExpired',
  typeof signatureRequestExpiredData
>;
export type SignatureRequestCancelled = Event<
  'SignatureRequestCancelled',
  typeof signatureRequestCancelledData
>;
export type SignatureRequestEvent =
  | SignatureRequested
  | SignatureRequestViewed
  | SignatureRequestSigned
  | SignatureRequestDeclined
  | SignatureRequestExpired
  | SignatureRequestCancelled;

export const documentEventSchemas = {
  DocumentUploaded: documentUploadedData,
  DocumentVersionAdded: documentVersionAddedData,
  DocumentRemoved: documentRemovedData,
} as const satisfies Record<DocumentEvent['type'], z.ZodType>;

export const signatureRequestEventSchemas = {
  SignatureRequested: signatureRequestedData,
  SignatureRequestViewed: signatureRequestViewedData,
  SignatureRequestSigned: signatureRequestSignedData,
  SignatureRequestDeclined: signatureRequestDeclinedData,
  SignatureRequestExpired: signatureRequestExpiredData,
  SignatureRequestCancelled: signatureRequestCancelledData,
} as const satisfies Record<SignatureRequestEvent['type'], z.ZodType>;

export const documentEventTypes = Object.keys(documentEventSchemas) as DocumentEvent['type'][];
export const signatureRequestEventTypes = Object.keys(
  signatureRequestEventSchemas,
) as SignatureRequestEvent['type'][];

export function asDocumentEvent(event: { type: string; data: unknown }): DocumentEvent | undefined {
  return Object.hasOwn(documentEventSchemas, event.type) ? (event as DocumentEvent) : undefined;
}

export function asSignatureRequestEvent(event: {
  type: string;
  data: unknown;
}): SignatureRequestEvent | undefined {
  return Object.hasOwn(signatureRequestEventSchemas, event.type)
    ? (event as SignatureRequestEvent)
    : undefined;
}
