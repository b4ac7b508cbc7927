import type { DocumentEvent, SignatureRequestEvent } from '@issuer/events';
import { describe, it } from 'vitest';
import { deciderSpecification } from '../auth/testing/deciderSpecification';
import { decideDocument, evolveDocument } from './document';
import { decideSignatureRequest, evolveSignatureRequest } from './signatureRequest';

const documents = deciderSpecification({
  decide: decideDocument,
  evolve: evolveDocument,
  initialState: () => ({ status: 'none' as const }),
});
const requests = deciderSpecification({
  decide: decideSignatureRequest,
  evolve: evolveSignatureRequest,
  initialState: () => ({ status: 'none' as const }),
});

const at = '2026-03-01T10:00:00.000Z';
const now = new Date(at);
const file = {
  fileName: 'a.pdf',
  mediaType: 'application/pdf' as const,
  sizeBytes: 10,
  sha256: 'a'.repeat(64),
};
const actor = { companyId: 'c-1', actorId: 'u-1', now };
const uploaded: DocumentEvent = {
  type: 'DocumentUploaded',
  data: {
    documentId: 'doc_1',
    companyId: 'c-1',
    ...file,
    title: 'Terms',
    customerId: null,
    roundId: null,
    uploadedBy: 'u-1',
    uploadedAt: at,
  },
};
const removed: DocumentEvent = {
  type: 'DocumentRemoved',
  data: { documentId: 'doc_1', companyId: 'c-1', reason: null, removedBy: 'u-1', removedAt: at },
};

describe('a document', () => {
  it('numbers a new version after the last one', () => {
    documents
      .given([uploaded])
      .when({ type: 'AddDocumentVersion', data: { ...actor, file: { ...file, sha256: 'b' } } })
      .then([
        {
          type: 'DocumentVersionAdded',
          data: {
            documentId: 'doc_1',
            companyId: 'c-1',
            ...file,
            sha256: 'b',
            version: 2,
            uploadedBy: 'u-1',
            uploadedAt: at,
          },
        },
      ]);
  });

  it('is not found by another company, nor once removed', () => {
    documents
      .given([uploaded])
      .when({ type: 'RemoveDocument', data: { ...actor, companyId: 'c-2', reason: null } })
      .thenThrows({ status: 404 });
    documents
      .given([uploaded, removed])
      .when({ type: 'AddDocumentVersion', data: { ...actor, file } })
      .thenThrows({ status: 404 });
  });
});

const envelope = [{ documentId: 'doc_1', version: 1, title: 'Terms', sha256: 'a'.repeat(64) }];
const expiresAt = '2026-03-15T10:00:00.000Z';
const requested: SignatureRequestEvent = {
  type: 'SignatureRequested',
  data: {
    requestId: 'sig_1',
    companyId: 'c-1',
    customerId: 'cu-1',
    roundId: null,
    documents: envelope,
    message: null,
    expiresAt,
    requestedBy: 'u-1',
    requestedAt: at,
  },
};
const signer = { ip: '198.51.100.1', userAgent: 'UA' };
const later = (iso: string) => new Date(iso);

describe('a signature request', () => {
  it('records the first view only', () => {
    requests
      .given([requested])
      .when({ type: 'ViewSignatureRequest', data: { ...signer, now } })
      .then([
        {
          type: 'SignatureRequestViewed',
          data: { requestId: 'sig_1', companyId: 'c-1', ...signer, viewedAt: at },
        },
      ]);
    const viewed: SignatureRequestEvent = {
      type: 'SignatureRequestViewed',
      data: { requestId: 'sig_1', companyId: 'c-1', ...signer, viewedAt: at },
    };
    requests
      .given([requested, viewed])
      .when({ type: 'ViewSignatureRequest', data: { ...signer, now } })
      .then([]);
  });

  it('is signed with the envelope’s hashes while open, and refused (410) once past its time', () => {
    requests
      .given([requested])
      .when({ type: 'SignDocuments', data: { ...signer, signerName: 'Ada', now } })
      .then([
        {
          type: 'SignatureRequestSigned',
          data: {
            requestId: 'sig_1',
            companyId: 'c-1',
            ...signer,
            signerName: 'Ada',
            consent: true,
            documents: envelope,
            signedAt: at,
          },
        },
      ]);
    requests
      .given([requested])
      .when({
        type: 'SignDocuments',
        data: { ...signer, signerName: 'Ada', now: later(expiresAt) },
      })
      .thenThrows({ status: 410 });
  });

  it('expires only once open and overdue', () => {
    requests.given([requested]).when({ type: 'ExpireSignatureRequest', data: { now } }).then([]);
    requests
      .given([requested])
      .when({ type: 'ExpireSignatureRequest', data: { now: later(expiresAt) } })
      .then([
        {
          type: 'SignatureRequestExpired',
          data: { requestId: 'sig_1', companyId: 'c-1', expiredAt: expiresAt },
        },
      ]);
  });

  it('cancels while open; a signed one is a conflict, another company’s is not found', () => {
    const signed: SignatureRequestEvent = {
      type: 'SignatureRequestSigned',
      data: {
        requestId: 'sig_1',
        companyId: 'c-1',
        ...signer,
        signerName: 'Ada',
        consent: true,
        documents: envelope,
        signedAt: at,
      },
    };
    requests
      .given([requested, signed])
      .when({ type: 'CancelSignatureRequest', data: { companyId: 'c-1', actorId: 'u-1', now } })
      .thenThrows({ status: 409 });
    requests
      .given([requested])
      .when({ type: 'CancelSignatureRequest', data: { companyId: 'c-2', actorId: 'u-1', now } })
      .thenThrows({ status: 404 });
    requests
      .given([requested])
      .when({ type: 'CancelSignatureRequest', data: { companyId: 'c-1', actorId: 'u-1', now } })
      .then([
        {
          type: 'SignatureRequestCancelled',
          data: { requestId: 'sig_1', companyId: 'c-1', cancelledBy: 'u-1', cancelledAt: at },
        },
      ]);
  });
});
