import {
  conflict,
  DomainError,
  type EnvelopeDocument,
  notFound,
  type SignatureRequestEvent,
} from '@issuer/events';
import type { Decider } from '../http';

export const signatureStatuses = [
  'sent',
  'viewed',
  'signed',
  'declined',
  'expired',
  'cancelled',
] as const;
export type SignatureStatus = (typeof signatureStatuses)[number];

/** Where and how a signer acted, for the audit trail and the certificate. */
export interface SignerContext {
  ip: string;
  userAgent: string;
}

export interface SignatureRequestDetails {
  requestId: string;
  companyId: string;
  customerId: string;
  roundId: string | null;
  documents: EnvelopeDocument[];
  message: string | null;
  expiresAt: string;
  requestedBy: string;
  requestedAt: string;
  viewed: ({ at: string } & SignerContext) | null;
  signed:
    | ({ at: string; signerName: string; documents: EnvelopeDocument[] } & SignerContext)
    | null;
  declined: ({ at: string; reason: string | null } & SignerContext) | null;
  closedAt: string | null;
  cancelledBy: string | null;
}

export type SignatureRequest =
  | { status: 'none' }
  | ({ status: SignatureStatus } & SignatureRequestDetails);

type Command<Type extends string, Data> = { type: Type; data: Data & { now: Date } };
export type RequestSignature = Command<
  'RequestSignature',
  {
    requestId: string;
    companyId: string;
    customerId: string;
    roundId: string | null;
    documents: EnvelopeDocument[];
    message: string | null;
    expiresAt: Date;
    actorId: string;
  }
>;
export type ViewSignatureRequest = Command<'ViewSignatureRequest', SignerContext>;
export type SignDocuments = Command<'SignDocuments', SignerContext & { signerName: string }>;
export type DeclineSignature = Command<
  'DeclineSignature',
  SignerContext & { reason: string | null }
>;
export type ExpireSignatureRequest = Command<'ExpireSignatureRequest', object>;
export type CancelSignatureRequest = Command<
  'CancelSignatureRequest',
  { companyId: string; actorId: string }
>;
export type SignatureRequestCommand =
  | RequestSignature
  | ViewSignatureRequest
  | SignDocuments
  | DeclineSignature
  | ExpireSignatureRequest
  | CancelSignatureRequest;

type Open = Extract<SignatureRequest, { status: SignatureStatus }>;
export const isSignatureRequest = (state: SignatureRequest): state is Open =>
  state.status !== 'none';
const isOpen = (state: Open) => state.status === 'sent' || state.status === 'viewed';

export const linkExpired = () =>
  new DomainError(410, 'signature_request_closed', 'This signing link has expired');
const closed = (state: Open) =>
  new DomainError(410, 'signature_request_closed', `This signature request is ${state.status}`);

export function decideSignatureRequest(
  command: SignatureRequestCommand,
  state: SignatureRequest,
): SignatureRequestEvent[] {
  const at = command.data.now.toISOString();
  if (command.type === 'RequestSignature') {
    if (state.status !== 'none') throw conflict('This signature request exists already');
    const { now: _now, actorId, expiresAt, ...data } = command.data;
    return [
      {
        type: 'SignatureRequested',
        data: {
          ...data,
          expiresAt: expiresAt.toISOString(),
          requestedBy: actorId,
          requestedAt: at,
        },
      },
    ];
  }
  if (!isSignatureRequest(state)) throw notFound('Signature request');
  const ids = { requestId: state.requestId, companyId: state.companyId };
  const overdue = command.data.now.getTime() >= Date.parse(state.expiresAt);
  switch (command.type) {
    case 'ViewSignatureRequest': {
      if (state.status !== 'sent' || overdue) return [];
      const { ip, userAgent } = command.data;
      return [{ type: 'SignatureRequestViewed', data: { ...ids, ip, userAgent, viewedAt: at } }];
    }
    case 'SignDocuments': {
      if (!isOpen(state)) throw closed(state);
      if (overdue) throw linkExpired();
      const { ip, userAgent, signerName } = command.data;
      return [
        {
          type: 'SignatureRequestSigned',
          data: {
            ...ids,
            ip,
            userAgent,
            signerName,
            consent: true,
            documents: state.documents,
            signedAt: at,
          },
        },
      ];
    }
    case 'DeclineSignature': {
      if (!isOpen(state)) throw closed(state);
      if (overdue) throw linkExpired();
      const { ip, userAgent, reason } = command.data;
      return [
        {
          type: 'SignatureRequestDeclined',
          data: { ...ids, ip, userAgent, reason, declinedAt: at },
        },
      ];
    }
    case 'ExpireSignatureRequest':
      if (!isOpen(state) || !overdue) return [];
      return [{ type: 'SignatureRequestExpired', data: { ...ids, expiredAt: at } }];
    case 'CancelSignatureRequest':
      if (state.companyId !== command.data.companyId) throw notFound('Signature request');
      if (state.status === 'cancelled') return [];
      if (!isOpen(state)) {
        throw conflict(`A ${state.status} signature request cannot be cancelled`, {
          status: `Already ${state.status}`,
        });
      }
      return [
        {
          type: 'SignatureRequestCancelled',
          data: { ...ids, cancelledBy: command.data.actorId, cancelledAt: at },
        },
      ];
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}

export function evolveSignatureRequest(
  state: SignatureRequest,
  event: SignatureRequestEvent,
): SignatureRequest {
  if (event.type === 'SignatureRequested') {
    return {
      status: 'sent',
      ...event.data,
      viewed: null,
      signed: null,
      declined: null,
      closedAt: null,
      cancelledBy: null,
    };
  }
  if (!isSignatureRequest(state)) return state;
  switch (event.type) {
    case 'SignatureRequestViewed': {
      const { ip, userAgent, viewedAt } = event.data;
      return { ...state, status: 'viewed', viewed: { at: viewedAt, ip, userAgent } };
    }
    case 'SignatureRequestSigned': {
      const { ip, userAgent, signedAt, signerName, documents } = event.data;
      const signed = { at: signedAt, ip, userAgent, signerName, documents };
      return { ...state, status: 'signed', signed, closedAt: signedAt };
    }
    case 'SignatureRequestDeclined': {
      const { ip, userAgent, declinedAt, reason } = event.data;
      const declined = { at: declinedAt, ip, userAgent, reason };
      return { ...state, status: 'declined', declined, closedAt: declinedAt };
    }
    case 'SignatureRequestExpired':
      return { ...state, status: 'expired', closedAt: event.data.expiredAt };
    case 'SignatureRequestCancelled':
      return {
        ...state,
        status: 'cancelled',
        closedAt: event.data.cancelledAt,
        cancelledBy: event.data.cancelledBy,
      };
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}

export const signatureRequestDecider: Decider<
  SignatureRequest,
  SignatureRequestCommand,
  SignatureRequestEvent
> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveSignatureRequest,
  decide: decideSignatureRequest,
};
