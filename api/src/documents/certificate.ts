import { z } from 'zod';
import {
  type SignatureRequestDetails,
  type SignatureStatus,
  signatureStatuses,
} from './signatureRequest';

/** The certificate as `GET /signature-requests/:id/certificate` downloads it. */
export const certificateSchema = z
  .strictObject({
    certificate: z.literal('Issuer Portal signature certificate'),
    requestId: z.string(),
    companyId: z.string(),
    customerId: z.string(),
    roundId: z.string().nullable(),
    status: z.enum(signatureStatuses),
    signer: z
      .strictObject({
        typedName: z.string(),
        consent: z.literal(true),
        signedAt: z.string(),
        ip: z.string(),
        userAgent: z.string(),
      })
      .nullable(),
    documents: z.array(
      z.strictObject({
        documentId: z.string(),
        version: z.int(),
        title: z.string(),
        sha256: z.string(),
        hashAlgorithm: z.literal('SHA-256'),
      }),
    ),
    trail: z.array(
      z.union([
        z.strictObject({ event: z.literal('sent'), at: z.string(), by: z.string() }),
        z.strictObject({ event: z.enum(['viewed', 'signed']), at: z.string(), ip: z.string() }),
      ]),
    ),
  })
  .meta({ id: 'SignatureCertificate' });

/**
 * The signature certificate: the audit trail of one signed envelope (who typed which name, when,
 * from where, consenting to which bytes), as a JSON record downloadable beside the documents.
 */
export function certificateOf(
  state: SignatureRequestDetails & { status: SignatureStatus },
): z.infer<typeof certificateSchema> {
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
      ...(state.viewed
        ? [{ event: 'viewed' as const, at: state.viewed.at, ip: state.viewed.ip }]
        : []),
      ...(state.signed
        ? [{ event: 'signed' as const, at: state.signed.at, ip: state.signed.ip }]
        : []),
    ],
  };
}
