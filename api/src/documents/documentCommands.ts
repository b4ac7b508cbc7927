import { randomUUID } from 'node:crypto';
import {
  DomainError,
  type EnvelopeDocument,
  notFound,
  streamCategories,
  streamName,
  systemReason,
} from '@issuer/events';
import { customerDecider } from '../customers/businessLogic';
import { customerStream } from '../customers/customerCommands';
import { type AppDependencies, foldStream } from '../http';
import { type CommandOrigin, runOnStream } from '../http/streamCommands';
import {
  currentVersion,
  type DocumentCommand,
  type DocumentFile,
  documentDecider,
  isDocument,
} from './document';
import {
  isSignatureRequest,
  type SignatureRequestCommand,
  type SignerContext,
  signatureRequestDecider,
} from './signatureRequest';

/** The write operations of documents and signature requests, shared by routes and the timer. */
export type DocumentDeps = Pick<AppDependencies, 'store' | 'clock'>;
export type Actor = { companyId: string; actorId: string } & CommandOrigin;

export const documentStream = (documentId: string) =>
  streamName(streamCategories.document, documentId);
export const signatureRequestStream = (requestId: string) =>
  streamName(streamCategories.signatureRequest, requestId);

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
export const isDocumentId = (id: string) => new RegExp(`^doc_${uuid}$`).test(id);
export const isSignatureRequestId = (id: string) => new RegExp(`^sig_${uuid}$`).test(id);

const originOf = (actor: Actor): CommandOrigin => ({ ...actor, userId: actor.actorId });

export async function loadDocument(deps: Pick<DocumentDeps, 'store'>, documentId: string) {
  if (!isDocumentId(documentId)) return { status: 'none' as const };
  return (await foldStream(deps.store, documentStream(documentId), documentDecider)).state;
}

/** The company's document (removed ones too), or 404: missing, or another company's. */
export async function ownDocument(deps: DocumentDeps, companyId: string, documentId: string) {
  const document = await loadDocument(deps, documentId);
  if (!isDocument(document) || document.companyId !== companyId) throw notFound('Document');
  return document;
}

export async function loadSignatureRequest(deps: Pick<DocumentDeps, 'store'>, requestId: string) {
  if (!isSignatureRequestId(requestId)) return { status: 'none' as const };
  return (await foldStream(deps.store, signatureRequestStream(requestId), signatureRequestDecider))
    .state;
}

/** The company's active customer, or 404 (in a path or in a body alike). */
export async function ownCustomer(deps: DocumentDeps, companyId: string, customerId: string) {
  const { state } = await foldStream(deps.store, customerStream(customerId), customerDecider);
  if (state.status !== 'active' || state.companyId !== companyId) throw notFound('Customer');
  return state;
}

function runOnDocument(
  deps: DocumentDeps,
  documentId: string,
  command: DocumentCommand,
  actor: Actor,
) {
  return runOnStream(
    deps,
    documentStream(documentId),
    documentDecider,
    command,
    (state) => (isDocument(state) ? state.companyId : undefined),
    originOf(actor),
  );
}

export function runOnSignatureRequest(
  deps: DocumentDeps,
  requestId: string,
  command: SignatureRequestCommand,
  origin: CommandOrigin,
) {
  return runOnStream(
    deps,
    signatureRequestStream(requestId),
    signatureRequestDecider,
    command,
    (state) => (isSignatureRequest(state) ? state.companyId : undefined),
    origin,
  );
}

export async function uploadDocument(
  deps: DocumentDeps,
  actor: Actor & {
    title: string;
    file: DocumentFile;
    customerId: string | null;
    roundId: string | null;
  },
) {
  if (actor.customerId) await ownCustomer(deps, actor.companyId, actor.customerId);
  const documentId = `doc_${randomUUID()}`;
  const { companyId, actorId, title, file, customerId, roundId } = actor;
  const outcome = await runOnDocument(
    deps,
    documentId,
    {
      type: 'UploadDocument',
      data: { companyId, actorId, now: deps.clock(), documentId, title, file, customerId, roundId },
    },
    actor,
  );
  return { documentId, position: outcome.position };
}

export async function addDocumentVersion(
  deps: DocumentDeps,
  actor: Actor & { documentId: string; file: DocumentFile },
) {
  await ownDocument(deps, actor.companyId, actor.documentId);
  const { companyId, actorId, file } = actor;
  return runOnDocument(
    deps,
    actor.documentId,
    { type: 'AddDocumentVersion', data: { companyId, actorId, now: deps.clock(), file } },
    actor,
  );
}

export async function removeDocument(
  deps: DocumentDeps,
  actor: Actor & { documentId: string; reason: string | null },
) {
  const document = await ownDocument(deps, actor.companyId, actor.documentId);
  if (document.status === 'removed') return { position: undefined };
  const { companyId, actorId, reason } = actor;
  return runOnDocument(
    deps,
    actor.documentId,
    { type: 'RemoveDocument', data: { companyId, actorId, now: deps.clock(), reason } },
    actor,
  );
}

/** The envelope: each named document (once) at its current version, all the company's and active. */
async function envelopeOf(deps: DocumentDeps, companyId: string, documentIds: string[]) {
  const documents: EnvelopeDocument[] = [];
  for (const documentId of new Set(documentIds)) {
    const document = await ownDocument(deps, companyId, documentId);
    if (document.status !== 'active') throw notFound('Document');
    const { version, sha256 } = currentVersion(document);
    documents.push({ documentId, version, title: document.title, sha256 });
  }
  return documents;
}

export async function requestSignature(
  deps: DocumentDeps,
  actor: Actor & {
    customerId: string;
    documentIds: string[];
    roundId: string | null;
    message: string | null;
    expiresInDays: number;
  },
) {
  const { companyId, actorId, customerId, roundId, message } = actor;
  const customer = await ownCustomer(deps, companyId, customerId);
  const documents = await envelopeOf(deps, companyId, actor.documentIds);
  const requestId = `sig_${randomUUID()}`;
  const now = deps.clock();
  const expiresAt = new Date(now.getTime() + actor.expiresInDays * 86_400_000);
  const outcome = await runOnSignatureRequest(
    deps,
    requestId,
    {
      type: 'RequestSignature',
      data: {
        requestId,
        companyId,
        customerId,
        roundId,
        documents,
        message,
        expiresAt,
        actorId,
        now,
      },
    },
    originOf(actor),
  );
  return { requestId, customer, position: outcome.position };
}

export async function cancelSignatureRequest(
  deps: DocumentDeps,
  actor: Actor & { requestId: string },
) {
  const state = await loadSignatureRequest(deps, actor.requestId);
  if (!isSignatureRequest(state) || state.companyId !== actor.companyId) {
    throw notFound('Signature request');
  }
  const { companyId, actorId } = actor;
  return runOnSignatureRequest(
    deps,
    actor.requestId,
    { type: 'CancelSignatureRequest', data: { companyId, actorId, now: deps.clock() } },
    originOf(actor),
  );
}

/** The signer's acts on the public page: no user, the request id as the correlation. */
export function actAsSigner(
  deps: DocumentDeps,
  requestId: string,
  act:
    | { type: 'ViewSignatureRequest' }
    | { type: 'SignDocuments'; signerName: string }
    | { type: 'DeclineSignature'; reason: string | null },
  context: SignerContext & { correlationId: string },
) {
  const { ip, userAgent } = context;
  const now = deps.clock();
  const command: SignatureRequestCommand =
    act.type === 'ViewSignatureRequest'
      ? { type: act.type, data: { ip, userAgent, now } }
      : act.type === 'SignDocuments'
        ? { type: act.type, data: { ip, userAgent, now, signerName: act.signerName } }
        : { type: act.type, data: { ip, userAgent, now, reason: act.reason } };
  return runOnSignatureRequest(deps, requestId, command, {
    correlationId: context.correlationId,
    userId: null,
  });
}

export function expireSignatureRequest(deps: DocumentDeps, requestId: string) {
  return runOnSignatureRequest(
    deps,
    requestId,
    { type: 'ExpireSignatureRequest', data: { now: deps.clock() } },
    { userId: null },
  );
}

/**
 * Once every document sent to the customer for the round is signed, the customer moves to
 * Documents Signed, by the system, the envelope as the reason; when the investor workflow does
 * not allow that move from where the customer is, nothing changes.
 */
export async function markDocumentsSigned(
  deps: DocumentDeps & Pick<AppDependencies, 'logger'>,
  request: { requestId: string; companyId: string; customerId: string },
) {
  try {
    return await runOnStream(
      deps,
      customerStream(request.customerId),
      customerDecider,
      {
        type: 'ChangeInvestorStatus',
        data: {
          companyId: request.companyId,
          to: 'Documents Signed',
          reason: systemReason('signatureRequest', request.requestId),
          evidence: request.requestId,
          actorId: 'system',
          now: deps.clock(),
        },
      },
      (state) => (state.status === 'active' ? state.companyId : undefined),
      { userId: null, causationId: request.requestId },
    );
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    deps.logger.info(
      { requestId: request.requestId, customerId: request.customerId, reason: error.message },
      'documents signed; the investor workflow does not allow Documents Signed from here',
    );
    return { position: undefined };
  }
}
