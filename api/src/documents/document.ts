import { conflict, type DocumentEvent, type DocumentMediaType, notFound } from '@issuer/events';
import type { Decider } from '../http';

export interface DocumentVersion {
  version: number;
  fileName: string;
  mediaType: DocumentMediaType;
  sizeBytes: number;
  sha256: string;
  uploadedBy: string;
  uploadedAt: string;
}

export interface DocumentDetails {
  documentId: string;
  companyId: string;
  title: string;
  customerId: string | null;
  roundId: string | null;
  /** Oldest first; the last one is the current version. */
  versions: DocumentVersion[];
  createdAt: string;
  removedAt: string | null;
}

export type Document =
  | { status: 'none' }
  | ({ status: 'active' } & DocumentDetails)
  | ({ status: 'removed' } & DocumentDetails);

export type DocumentFile = Omit<DocumentVersion, 'version' | 'uploadedBy' | 'uploadedAt'>;

type Scoped<Type extends string, Data> = {
  type: Type;
  data: Data & { companyId: string; actorId: string; now: Date };
};
export type UploadDocument = Scoped<
  'UploadDocument',
  {
    documentId: string;
    title: string;
    file: DocumentFile;
    customerId: string | null;
    roundId: string | null;
  }
>;
export type AddDocumentVersion = Scoped<'AddDocumentVersion', { file: DocumentFile }>;
export type RemoveDocument = Scoped<'RemoveDocument', { reason: string | null }>;
export type DocumentCommand = UploadDocument | AddDocumentVersion | RemoveDocument;

export const isDocument = (state: Document): state is Exclude<Document, { status: 'none' }> =>
  state.status !== 'none';

export const currentVersion = (state: DocumentDetails) => state.versions.at(-1) as DocumentVersion;

export function decideDocument(command: DocumentCommand, state: Document): DocumentEvent[] {
  const { companyId, actorId, now } = command.data;
  const at = now.toISOString();
  if (command.type === 'UploadDocument') {
    if (state.status !== 'none') throw conflict('This document exists already');
    const { documentId, title, file, customerId, roundId } = command.data;
    return [
      {
        type: 'DocumentUploaded',
        data: {
          documentId,
          companyId,
          ...file,
          title,
          customerId,
          roundId,
          uploadedBy: actorId,
          uploadedAt: at,
        },
      },
    ];
  }
  if (state.status !== 'active' || state.companyId !== companyId) throw notFound('Document');
  const ids = { documentId: state.documentId, companyId };
  switch (command.type) {
    case 'AddDocumentVersion':
      return [
        {
          type: 'DocumentVersionAdded',
          data: {
            ...ids,
            ...command.data.file,
            version: state.versions.length + 1,
            uploadedBy: actorId,
            uploadedAt: at,
          },
        },
      ];
    case 'RemoveDocument':
      return [
        {
          type: 'DocumentRemoved',
          data: { ...ids, reason: command.data.reason, removedBy: actorId, removedAt: at },
        },
      ];
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}

export function evolveDocument(state: Document, event: DocumentEvent): Document {
  switch (event.type) {
    case 'DocumentUploaded': {
      const { documentId, companyId, title, customerId, roundId, uploadedBy, uploadedAt } =
        event.data;
      const { fileName, mediaType, sizeBytes, sha256 } = event.data;
      return {
        status: 'active',
        documentId,
        companyId,
        title,
        customerId,
        roundId,
        versions: [{ version: 1, fileName, mediaType, sizeBytes, sha256, uploadedBy, uploadedAt }],
        createdAt: uploadedAt,
        removedAt: null,
      };
    }
    case 'DocumentVersionAdded': {
      if (!isDocument(state)) return state;
      const { version, fileName, mediaType, sizeBytes, sha256, uploadedBy, uploadedAt } =
        event.data;
      return {
        ...state,
        versions: [
          ...state.versions,
          { version, fileName, mediaType, sizeBytes, sha256, uploadedBy, uploadedAt },
        ],
      };
    }
    case 'DocumentRemoved':
      return isDocument(state)
        ? { ...state, status: 'removed', removedAt: event.data.removedAt }
        : state;
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}

export const documentDecider: Decider<Document, DocumentCommand, DocumentEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveDocument,
  decide: decideDocument,
};
