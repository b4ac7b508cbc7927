import { z } from 'zod';

/**
 * Events of the Company stream (`Company-<companyId>`) and of the symbol reservation stream
 * (`CompanySymbol-<SYMBOL>`). Names and fields are stable forever: add optional fields, never
 * rename. Every event's metadata also carries the company id.
 */

export { companySymbolPattern } from '../rules/fieldRules';

export const companyRegisteredData = z.object({
  companyId: z.string(),
  name: z.string(),
  symbol: z.string(),
  registeredBy: z.string(),
  registeredAt: z.string(),
});

export const companyProfileUpdatedData = z.object({
  companyId: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
});

export const companyVerifiedData = z.object({
  companyId: z.string(),
  verifiedBy: z.string(),
  verifiedAt: z.string(),
});

export const issuerStatusGrantedData = z.object({
  companyId: z.string(),
  grantedBy: z.string(),
  grantedAt: z.string(),
});

export const issuerStatusRevokedData = z.object({
  companyId: z.string(),
  revokedBy: z.string(),
  revokedAt: z.string(),
});

/** The operator took the verification back, with a reason: the company is unverified again. */
export const companyVerificationRevokedData = z.object({
  companyId: z.string(),
  reason: z.string(),
  revokedBy: z.string(),
  revokedAt: z.string(),
});

/** The operator suspended the company, with a reason: its users are refused until reinstated. */
export const companySuspendedData = z.object({
  companyId: z.string(),
  reason: z.string(),
  suspendedBy: z.string(),
  suspendedAt: z.string(),
});

export const companyReinstatedData = z.object({
  companyId: z.string(),
  reason: z.string(),
  reinstatedBy: z.string(),
  reinstatedAt: z.string(),
});

export const paymentTerminalRegisteredData = z.object({
  companyId: z.string(),
  terminalId: z.string(),
  name: z.string(),
  deviceId: z.string(),
});

export const paymentTerminalRenamedData = z.object({
  companyId: z.string(),
  terminalId: z.string(),
  name: z.string(),
});

export const paymentTerminalRemovedData = z.object({
  companyId: z.string(),
  terminalId: z.string(),
});

export const symbolReservedData = z.object({ symbol: z.string(), companyId: z.string() });
export const symbolReleasedData = z.object({ symbol: z.string(), companyId: z.string() });

export type CompanyRegistered = {
  type: 'CompanyRegistered';
  data: z.infer<typeof companyRegisteredData>;
};
export type CompanyProfileUpdated = {
  type: 'CompanyProfileUpdated';
  data: z.infer<typeof companyProfileUpdatedData>;
};
export type CompanyVerified = {
  type: 'CompanyVerified';
  data: z.infer<typeof companyVerifiedData>;
};
export type IssuerStatusGranted = {
  type: 'IssuerStatusGranted';
  data: z.infer<typeof issuerStatusGrantedData>;
};
export type IssuerStatusRevoked = {
  type: 'IssuerStatusRevoked';
  data: z.infer<typeof issuerStatusRevokedData>;
};
export type CompanyVerificationRevoked = {
  type: 'CompanyVerificationRevoked';
  data: z.infer<typeof companyVerificationRevokedData>;
};
export type CompanySuspended = {
  type: 'CompanySuspended';
  data: z.infer<typeof companySuspendedData>;
};
export type CompanyReinstated = {
  type: 'CompanyReinstated';
  data: z.infer<typeof companyReinstatedData>;
};
export type PaymentTerminalRegistered = {
  type: 'PaymentTerminalRegistered';
  data: z.infer<typeof paymentTerminalRegisteredData>;
};
export type PaymentTerminalRenamed = {
  type: 'PaymentTerminalRenamed';
  data: z.infer<typeof paymentTerminalRenamedData>;
};
export type PaymentTerminalRemoved = {
  type: 'PaymentTerminalRemoved';
  data: z.infer<typeof paymentTerminalRemovedData>;
};

export type CompanyEvent =
  | CompanyRegistered
  | CompanyProfileUpdated
  | CompanyVerified
  | IssuerStatusGranted
  | IssuerStatusRevoked
  | CompanyVerificationRevoked
  | CompanySuspended
  | CompanyReinstated
  | PaymentTerminalRegistered
  | PaymentTerminalRenamed
  | PaymentTerminalRemoved;

export type SymbolReserved = { type: 'SymbolReserved'; data: z.infer<typeof symbolReservedData> };
export type SymbolReleased = { type: 'SymbolReleased'; data: z.infer<typeof symbolReleasedData> };
export type SymbolReservationEvent = SymbolReserved | SymbolReleased;

export const companyEventSchemas = {
  CompanyRegistered: companyRegisteredData,
  CompanyProfileUpdated: companyProfileUpdatedData,
  CompanyVerified: companyVerifiedData,
  IssuerStatusGranted: issuerStatusGrantedData,
  IssuerStatusRevoked: issuerStatusRevokedData,
  CompanyVerificationRevoked: companyVerificationRevokedData,
  CompanySuspended: companySuspendedData,
  CompanyReinstated: companyReinstatedData,
  PaymentTerminalRegistered: paymentTerminalRegisteredData,
  PaymentTerminalRenamed: paymentTerminalRenamedData,
  PaymentTerminalRemoved: paymentTerminalRemovedData,
} as const satisfies Record<CompanyEvent['type'], z.ZodType>;

export const symbolReservationEventSchemas = {
  SymbolReserved: symbolReservedData,
  SymbolReleased: symbolReleasedData,
} as const satisfies Record<SymbolReservationEvent['type'], z.ZodType>;

export const companyEventTypes = Object.keys(companyEventSchemas) as CompanyEvent['type'][];

/** Narrows a stored event to a company event by its type; undefined for any other type. */
export function asCompanyEvent(event: { type: string; data: unknown }): CompanyEvent | undefined {
  return Object.hasOwn(companyEventSchemas, event.type) ? (event as CompanyEvent) : undefined;
}

export function asSymbolReservationEvent(event: {
  type: string;
  data: unknown;
}): SymbolReservationEvent | undefined {
  return Object.hasOwn(symbolReservationEventSchemas, event.type)
    ? (event as SymbolReservationEvent)
    : undefined;
}
