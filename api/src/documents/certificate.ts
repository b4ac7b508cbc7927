import type { SignatureRequestDetails, SignatureStatus } from './signatureRequest';

/**
 * The signature certificate: the audit trail of one signed envelope (who typed which name, when,
 * from where, consenting to which bytes), as a JSON record downloadable beside the documents.
 */
export function certificateOf(state: SignatureRequestDetails & { status: SignatureStatus }) {
  return {
    certificate: 'Issuer Portal signature certificate',
    requestId: state.requestId,
    companyId: state.companyId,
    customerId: state.customerId,
    roundId: state.roundId,
    status: state.status,
    signer: state.signed
      ? {
          typedName: state.signed.signerName,
          consent: true,
          signedAt: state.signed.at,
          ip: state.signed.ip,
          userAgent: state.signed.userAgent,
        }
      : null,
    documents: (state.signed?.documents ?? state.documents).map((document) => ({
      ...document,
      hashAlgorithm: 'SHA-256',
    })),
    trail: [
      { event: 'sent', at: state.requestedAt, by: state.requestedBy },
      ...(state.viewed ? [{ event: 'viewed', at: state.viewed.at, ip: state.viewed.ip }] : []),
      ...(state.signed ? [{ event: 'signed', at: state.signed.at, ip: state.signed.ip }] : []),
    ],
  };
}
