import { z } from 'zod';

/**
 * Events of the cap table: one stream per company, `CapTable-<companyId>`, holding its share
 * classes, issuances and transfers. One stream because every rule of the cap table spans them:
 * issued never above a class's authorized count, a holder never sends more than they hold, and
 * the movements' dates never go backwards (so the as-of replay is a prefix of the stream). Each
 * append carries the stream's expected revision. Names and fields are stable forever: add
 * optional fields only.
 */

export const shareClassKinds = ['common', 'preferred'] as const;
export const shareClassKind = z.enum(shareClassKinds);
export type ShareClassKind = (typeof shareClassKinds)[number];

const time = z.string();
const shares = z.number().int();

/** A class's terms. `parValue` is a decimal text in CAD (par values are often below a cent). */
export const shareClassTerms = {
  name: z.string(),
  kind: shareClassKind,
  votesPerShare: z.number().int(),
  parValue: z.string(),
  /** Paid out before common at this multiple of the original issue price (1 = 1x). */
  liquidationPreferenceMultiple: z.number(),
  /** Higher is paid first on a liquidation; classes of equal seniority share pari passu. */
  seniority: z.number().int(),
  authorized: shares,
};

const capTable = { companyId: z.string(), shareClassId: z.string() };

export const shareClassCreatedData = z.object({
  ...capTable,
  ...shareClassTerms,
  createdBy: z.string(),
  createdAt: time,
});
/** The class's terms, whole. */
export const shareClassUpdatedData = z.object({
  ...capTable,
  ...shareClassTerms,
  updatedBy: z.string(),
  updatedAt: time,
});
/**
 * New shares to a holder (a customer). `issuedAt` is the issue date the cap table's as-of uses;
 * `issuedBy` a user id, or `system` for a process (a funding round's order).
 */
export const sharesIssuedData = z.object({
  ...capTable,
  issuanceId: z.string(),
  customerId: z.string(),
  shares,
  issuedAt: time,
  reason: z.string(),
  issuedBy: z.string(),
});
export const sharesTransferredData = z.object({
  ...capTable,
  transferId: z.string(),
  fromCustomerId: z.string(),
  toCustomerId: z.string(),
  shares,
  transferredAt: time,
  reason: z.string(),
  transferredBy: z.string(),
});

type Event<Type extends string, Schema extends z.ZodType> = { type: Type; data: z.infer<Schema> };

export type ShareClassCreated = Event<'ShareClassCreated', typeof shareClassCreatedData>;
export type ShareClassUpdated = Event<'ShareClassUpdated', typeof shareClassUpdatedData>;
export type SharesIssued = Event<'SharesIssued', typeof sharesIssuedData>;
export type SharesTransferred = Event<'SharesTransferred', typeof sharesTransferredData>;
export type CapTableEvent =
  | ShareClassCreated
  | ShareClassUpdated
  | SharesIssued
  | SharesTransferred;

export const capTableEventSchemas = {
  ShareClassCreated: shareClassCreatedData,
  ShareClassUpdated: shareClassUpdatedData,
  SharesIssued: sharesIssuedData,
  SharesTransferred: sharesTransferredData,
} as const satisfies Record<CapTableEvent['type'], z.ZodType>;

export const capTableEventTypes = Object.keys(capTableEventSchemas) as CapTableEvent['type'][];

export function asCapTableEvent(event: { type: string; data: unknown }): CapTableEvent | undefined {
  return Object.hasOwn(capTableEventSchemas, event.type) ? (event as CapTableEvent) : undefined;
}
