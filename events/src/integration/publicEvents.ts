import { z } from 'zod';
import { type CapTableEvent, capTableEventSchemas } from '../capTable/events';
import type { CompanyEvent, SymbolReservationEvent } from '../companies/events';
import {
  type CustomerEmailReservationEvent,
  type CustomerEvent,
  investorStatus,
  leadStatus,
  transitionKinds,
} from '../customers/events';
import {
  type DocumentEvent,
  documentEventSchemas,
  type SignatureRequestEvent,
  signatureRequestEventSchemas,
} from '../documents/events';
import {
  type EtransferEvent,
  etransferMatchMethod,
  payoutFailureReason,
  type WalletEvent,
} from '../etransfers/events';
import {
  type FundingRoundEvent,
  type FundingRoundHandleEvent,
  fundingRoundEventSchemas,
  type TokenOrderEvent,
  tokenOrderEventSchemas,
} from '../fundingRounds/events';
import type { PaymentMethodEvent } from '../paymentMethods/events';
import { declineReason, type PaymentEvent, paymentCurrency } from '../payments/events';
import {
  type BillingSettingsEvent,
  billingSettingsEventSchemas,
  type PlanEvent,
  planEventSchemas,
  type SubscriptionEvent,
  subscriptionEventSchemas,
} from '../subscriptions/events';
import type { EmailReservationEvent, UserEvent } from '../users/events';

/**
 * The integration contract: what downstream systems (Kafka consumers) receive for each internal
 * event. Internal events may change shape; these payloads change only by adding optional fields,
 * or by a new topic version. Secrets (password hashes and versions, token ids) never appear here.
 *
 * Every internal event type must have an entry (the `satisfies` below fails the type check when
 * one is missing, and integration.test.ts finds event types no union lists yet).
 */
export type InternalEvent =
  | CompanyEvent
  | SymbolReservationEvent
  | UserEvent
  | EmailReservationEvent
  | CustomerEvent
  | CustomerEmailReservationEvent
  | PaymentEvent
  | PaymentMethodEvent
  | EtransferEvent
  | WalletEvent
  | PlanEvent
  | SubscriptionEvent
  | BillingSettingsEvent
  | CapTableEvent
  | DocumentEvent
  | SignatureRequestEvent
  | FundingRoundEvent
  | FundingRoundHandleEvent
  | TokenOrderEvent;

export type InternalEventType = InternalEvent['type'];

type DataOf<Type extends InternalEventType> = Extract<InternalEvent, { type: Type }>['data'];

export interface PublishedMapping<Type extends InternalEventType, Payload extends z.ZodType> {
  published: true;
  /** Version of the public payload's shape (the envelope's `schemaVersion`). */
  schemaVersion: number;
  payload: Payload;
  toPublic(data: DataOf<Type>): z.infer<Payload>;
}

export interface UnpublishedMapping {
  published: false;
  /** Why consumers do not need it (documented in asyncapi.yaml under x-unpublished-events). */
  reason: string;
}

type Mapping<Type extends InternalEventType> =
  // biome-ignore lint/suspicious/noExplicitAny: each entry narrows the payload schema itself
  PublishedMapping<Type, any> | UnpublishedMapping;

function published<Type extends InternalEventType, Payload extends z.ZodType>(
  payload: Payload,
  toPublic: (data: DataOf<Type>) => z.infer<Payload>,
  schemaVersion = 1,
): PublishedMapping<Type, Payload> {
  return { published: true, schemaVersion, payload, toPublic };
}

const reservationReason =
  'uniqueness bookkeeping of the write side; CompanyRegistered/UserRegistered carry the facts';

const customerReservationReason =
  'uniqueness bookkeeping of the write side; CustomerAdded/CustomerUpdated carry the email';

const roundHandleReason =
  'uniqueness bookkeeping of the write side; FundingRoundCreated and FundingRoundUpdated carry the handle';

function unpublished(reason: string): UnpublishedMapping {
  return { published: false, reason };
}

const companyId = z.string();
const isoTime = z.string();
const customerId = z.string();
const paymentIds = { paymentId: z.string(), companyId };
const cents = z.number().int();
const etransferIds = { etransferId: z.string(), companyId };
const walletReason =
  'write-side guard of payouts; PaymentCaptured, PaymentRefunded and the e-transfer events carry the money movements';

/** A customer's editable fields as published (the same names as the REST resource). */
const publicCustomerProfile = {
  name: z.string(),
  lastName: z.string(),
  nickname: z.string(),
  avatar: z.string(),
  company: z.string(),
  jobTitle: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  birthday: z.string(),
  notes: z.string(),
  tags: z.array(z.string()),
  roundId: z.string(),
  tokenPrice: z.number().nullable(),
  tokenBalance: z.number().nullable(),
  percentageOwned: z.number().nullable(),
  walletAddress: z.string(),
};
const profileFields = Object.keys(publicCustomerProfile) as (keyof typeof publicCustomerProfile)[];

export const publicPayloads = {
  CompanyRegistered: z.strictObject({
    companyId,
    name: z.string(),
    symbol: z.string(),
    registeredBy: z.string(),
    registeredAt: isoTime,
  }),
  CompanyProfileUpdated: z.strictObject({
    companyId,
    name: z.string(),
    avatar: z.string().nullable(),
  }),
  CompanyVerified: z.strictObject({ companyId, verifiedBy: z.string(), verifiedAt: isoTime }),
  IssuerStatusGranted: z.strictObject({ companyId, grantedBy: z.string(), grantedAt: isoTime }),
  IssuerStatusRevoked: z.strictObject({ companyId, revokedBy: z.string(), revokedAt: isoTime }),
  CompanyVerificationRevoked: z.strictObject({
    companyId,
    reason: z.string(),
    revokedBy: z.string(),
    revokedAt: isoTime,
  }),
  CompanySuspended: z.strictObject({
    companyId,
    reason: z.string(),
    suspendedBy: z.string(),
    suspendedAt: isoTime,
  }),
  CompanyReinstated: z.strictObject({
    companyId,
    reason: z.string(),
    reinstatedBy: z.string(),
    reinstatedAt: isoTime,
  }),
  PaymentTerminalRegistered: z.strictObject({
    companyId,
    terminalId: z.string(),
    name: z.string(),
    deviceId: z.string(),
  }),
  PaymentTerminalRenamed: z.strictObject({ companyId, terminalId: z.string(), name: z.string() }),
  PaymentTerminalRemoved: z.strictObject({ companyId, terminalId: z.string() }),
  UserRegistered: z.strictObject({
    userId: z.string(),
    companyId,
    email: z.string(),
    displayName: z.string(),
    roles: z.array(z.string()),
    registeredAt: isoTime,
  }),
  UserSettingsUpdated: z.strictObject({
    userId: z.string(),
    settings: z.record(z.string(), z.unknown()),
    shortcuts: z.array(z.string()),
  }),
  UserPasswordChanged: z.strictObject({ userId: z.string(), changedAt: isoTime }),
  UserSignedOut: z.strictObject({ userId: z.string() }),
  CustomerAdded: z.strictObject({
    customerId,
    companyId,
    ...publicCustomerProfile,
    leadStatus,
    investorStatus,
    starred: z.boolean(),
    addedAt: isoTime,
  }),
  CustomerUpdated: z.strictObject({
    customerId,
    companyId,
    changes: z.strictObject(publicCustomerProfile).partial(),
  }),
  CustomerRemoved: z.strictObject({ customerId, companyId, reason: z.string().nullable() }),
  CustomerStarred: z.strictObject({ customerId, companyId }),
  CustomerUnstarred: z.strictObject({ customerId, companyId }),
  InvestorStatusChanged: z.strictObject({
    customerId,
    companyId,
    from: investorStatus,
    to: investorStatus,
    kind: z.enum(transitionKinds),
    reason: z.string().nullable(),
    evidence: z.string().nullable(),
    changedBy: z.string(),
    changedAt: isoTime,
  }),
  LeadStatusChanged: z.strictObject({ customerId, companyId, from: leadStatus, to: leadStatus }),
  PushNotificationSent: z.strictObject({
    customerId,
    companyId,
    notificationId: z.string(),
    title: z.string(),
    message: z.string(),
  }),
  PaymentRequested: z.strictObject({
    ...paymentIds,
    terminalId: z.string(),
    amountCents: cents,
    currency: paymentCurrency,
    customerId: z.string().nullable(),
    description: z.string().nullable(),
    requestedBy: z.string(),
    requestedAt: isoTime,
    expiresAt: isoTime,
    saveCard: z.boolean().optional(),
    paymentMethodId: z.string().optional(),
  }),
  PaymentSentToTerminal: z.strictObject({ ...paymentIds, terminalId: z.string(), sentAt: isoTime }),
  CardSaved: z.strictObject({
    paymentMethodId: z.string(),
    companyId,
    customerId,
    cardBrand: z.string(),
    cardLast4: z.string(),
    expMonth: z.number().int(),
    expYear: z.number().int(),
    paymentId: z.string(),
    savedBy: z.string(),
    savedAt: isoTime,
  }),
  CardRemoved: z.strictObject({
    paymentMethodId: z.string(),
    companyId,
    customerId,
    removedBy: z.string(),
    removedAt: isoTime,
  }),
  PaymentAuthorized: z.strictObject({
    ...paymentIds,
    amountCents: cents,
    cardBrand: z.string(),
    cardLast4: z.string(),
    authorizedAt: isoTime,
  }),
  PaymentCaptured: z.strictObject({
    ...paymentIds,
    amountCents: cents,
    currency: paymentCurrency,
    capturedAt: isoTime,
  }),
  PaymentDeclined: z.strictObject({ ...paymentIds, reason: declineReason, declinedAt: isoTime }),
  PaymentCancelled: z.strictObject({
    ...paymentIds,
    cancelledBy: z.string(),
    cancelledAt: isoTime,
  }),
  PaymentExpired: z.strictObject({ ...paymentIds, expiredAt: isoTime }),
  PaymentRefunded: z.strictObject({
    ...paymentIds,
    refundId: z.string(),
    amountCents: cents,
    currency: paymentCurrency,
    reason: z.string(),
    refundedBy: z.string(),
    refundedAt: isoTime,
  }),
  PaymentRefundConfirmed: z.strictObject({
    ...paymentIds,
    refundId: z.string(),
    confirmedAt: isoTime,
  }),
  PaymentRefundFailed: z.strictObject({
    ...paymentIds,
    refundId: z.string(),
    amountCents: cents,
    currency: paymentCurrency,
    reason: z.string(),
    failedAt: isoTime,
  }),
  EtransferRequested: z.strictObject({
    ...etransferIds,
    customerId,
    recipientEmail: z.string(),
    amountCents: cents,
    currency: paymentCurrency,
    message: z.string().nullable(),
    reference: z.string().nullable(),
    requestedBy: z.string(),
    requestedAt: isoTime,
    expiresAt: isoTime,
    /** The subscription invoice this request collects; null for a request made by hand. */
    invoiceId: z.string().nullable(),
    /** The token order this request collects; null otherwise. */
    orderId: z.string().nullable(),
  }),
  EtransferSent: z.strictObject({ ...etransferIds, sentAt: isoTime }),
  EtransferDeposited: z.strictObject({
    ...etransferIds,
    amountCents: cents,
    currency: paymentCurrency,
    depositedAt: isoTime,
  }),
  EtransferDeclined: z.strictObject({ ...etransferIds, declinedAt: isoTime }),
  EtransferCancelled: z.strictObject({
    ...etransferIds,
    cancelledBy: z.string(),
    cancelledAt: isoTime,
  }),
  EtransferExpired: z.strictObject({ ...etransferIds, expiredAt: isoTime }),
  IncomingEtransferReceived: z.strictObject({
    ...etransferIds,
    fromEmail: z.string(),
    amountCents: cents,
    currency: paymentCurrency,
    reference: z.string().nullable(),
    customerId: customerId.nullable(),
    matchedBy: etransferMatchMethod.nullable(),
    receivedAt: isoTime,
  }),
  EtransferMatched: z.strictObject({
    ...etransferIds,
    customerId,
    reason: z.string(),
    matchedBy: z.string(),
    matchedAt: isoTime,
  }),
  PayoutRequested: z.strictObject({
    ...etransferIds,
    customerId,
    recipientEmail: z.string(),
    amountCents: cents,
    currency: paymentCurrency,
    message: z.string().nullable(),
    requestedBy: z.string(),
    requestedAt: isoTime,
  }),
  PayoutSent: z.strictObject({ ...etransferIds, sentAt: isoTime }),
  PayoutFailed: z.strictObject({
    ...etransferIds,
    amountCents: cents,
    reason: payoutFailureReason,
    failedAt: isoTime,
  }),
} as const;

/** Copies only the named fields, so a field added to an internal event never leaks by default. */
function pick<Data extends object, Key extends keyof Data>(
  data: Data,
  keys: readonly Key[],
): Pick<Data, Key> {
  const picked = {} as Pick<Data, Key>;
  for (const key of keys) picked[key] = data[key];
  return picked;
}

const p = publicPayloads;

export const integrationMappings = {
  CompanyRegistered: published(p.CompanyRegistered, (d) =>
    pick(d, ['companyId', 'name', 'symbol', 'registeredBy', 'registeredAt']),
  ),
  CompanyProfileUpdated: published(p.CompanyProfileUpdated, (d) =>
    pick(d, ['companyId', 'name', 'avatar']),
  ),
  CompanyVerified: published(p.CompanyVerified, (d) =>
    pick(d, ['companyId', 'verifiedBy', 'verifiedAt']),
  ),
  IssuerStatusGranted: published(p.IssuerStatusGranted, (d) =>
    pick(d, ['companyId', 'grantedBy', 'grantedAt']),
  ),
  IssuerStatusRevoked: published(p.IssuerStatusRevoked, (d) =>
    pick(d, ['companyId', 'revokedBy', 'revokedAt']),
  ),
  CompanyVerificationRevoked: published(p.CompanyVerificationRevoked, (d) =>
    pick(d, ['companyId', 'reason', 'revokedBy', 'revokedAt']),
  ),
  CompanySuspended: published(p.CompanySuspended, (d) =>
    pick(d, ['companyId', 'reason', 'suspendedBy', 'suspendedAt']),
  ),
  CompanyReinstated: published(p.CompanyReinstated, (d) =>
    pick(d, ['companyId', 'reason', 'reinstatedBy', 'reinstatedAt']),
  ),
  PaymentTerminalRegistered: published(p.PaymentTerminalRegistered, (d) =>
    pick(d, ['companyId', 'terminalId', 'name', 'deviceId']),
  ),
  PaymentTerminalRenamed: published(p.PaymentTerminalRenamed, (d) =>
    pick(d, ['companyId', 'terminalId', 'name']),
  ),
  PaymentTerminalRemoved: published(p.PaymentTerminalRemoved, (d) =>
    pick(d, ['companyId', 'terminalId']),
  ),
  SymbolReserved: unpublished(reservationReason),
  SymbolReleased: unpublished(reservationReason),
  UserRegistered: published(p.UserRegistered, (d) =>
    pick(d, ['userId', 'companyId', 'email', 'displayName', 'roles', 'registeredAt']),
  ),
  UserSettingsUpdated: published(p.UserSettingsUpdated, (d) =>
    pick(d, ['userId', 'settings', 'shortcuts']),
  ),
  UserPasswordChanged: published(p.UserPasswordChanged, (d) => pick(d, ['userId', 'changedAt'])),
  UserSignedOut: published(p.UserSignedOut, (d) => pick(d, ['userId'])),
  EmailReserved: unpublished(reservationReason),
  EmailReleased: unpublished(reservationReason),
  CustomerAdded: published(p.CustomerAdded, (d) => ({
    ...pick(d, ['customerId', 'companyId', 'leadStatus', 'investorStatus', 'starred', 'addedAt']),
    ...pick(d.profile, profileFields),
  })),
  CustomerUpdated: published(p.CustomerUpdated, (d) => ({
    ...pick(d, ['customerId', 'companyId']),
    changes: pick(
      d.changes,
      profileFields.filter((field) => d.changes[field] !== undefined),
    ),
  })),
  CustomerRemoved: published(p.CustomerRemoved, (d) =>
    pick(d, ['customerId', 'companyId', 'reason']),
  ),
  CustomerStarred: published(p.CustomerStarred, (d) => pick(d, ['customerId', 'companyId'])),
  CustomerUnstarred: published(p.CustomerUnstarred, (d) => pick(d, ['customerId', 'companyId'])),
  InvestorStatusChanged: published(p.InvestorStatusChanged, (d) =>
    pick(d, [
      'customerId',
      'companyId',
      'from',
      'to',
      'kind',
      'reason',
      'evidence',
      'changedBy',
      'changedAt',
    ]),
  ),
  LeadStatusChanged: published(p.LeadStatusChanged, (d) =>
    pick(d, ['customerId', 'companyId', 'from', 'to']),
  ),
  PushNotificationSent: published(p.PushNotificationSent, (d) =>
    pick(d, ['customerId', 'companyId', 'notificationId', 'title', 'message']),
  ),
  CustomerEmailReserved: unpublished(customerReservationReason),
  CustomerEmailReleased: unpublished(customerReservationReason),
  // The processor's own ids (gatewayPaymentId, gatewayEventId) stay inside.
  PaymentRequested: published(p.PaymentRequested, (d) =>
    pick(d, [
      'paymentId',
      'companyId',
      'terminalId',
      'amountCents',
      'currency',
      'customerId',
      'description',
      'requestedBy',
      'requestedAt',
      'expiresAt',
      'saveCard',
      'paymentMethodId',
    ]),
  ),
  PaymentSentToTerminal: published(p.PaymentSentToTerminal, (d) =>
    pick(d, ['paymentId', 'companyId', 'terminalId', 'sentAt']),
  ),
  PaymentAuthorized: published(p.PaymentAuthorized, (d) =>
    pick(d, ['paymentId', 'companyId', 'amountCents', 'cardBrand', 'cardLast4', 'authorizedAt']),
  ),
  PaymentCaptured: published(p.PaymentCaptured, (d) =>
    pick(d, ['paymentId', 'companyId', 'amountCents', 'currency', 'capturedAt']),
  ),
  PaymentDeclined: published(p.PaymentDeclined, (d) =>
    pick(d, ['paymentId', 'companyId', 'reason', 'declinedAt']),
  ),
  PaymentCancelled: published(p.PaymentCancelled, (d) =>
    pick(d, ['paymentId', 'companyId', 'cancelledBy', 'cancelledAt']),
  ),
  PaymentExpired: published(p.PaymentExpired, (d) =>
    pick(d, ['paymentId', 'companyId', 'expiredAt']),
  ),
  PaymentRefunded: published(p.PaymentRefunded, (d) =>
    pick(d, [
      'paymentId',
      'companyId',
      'refundId',
      'amountCents',
      'currency',
      'reason',
      'refundedBy',
      'refundedAt',
    ]),
  ),
  PaymentRefundConfirmed: published(p.PaymentRefundConfirmed, (d) =>
    pick(d, ['paymentId', 'companyId', 'refundId', 'confirmedAt']),
  ),
  PaymentRefundFailed: published(p.PaymentRefundFailed, (d) =>
    pick(d, [
      'paymentId',
      'companyId',
      'refundId',
      'amountCents',
      'currency',
      'reason',
      'failedAt',
    ]),
  ),
  // The reusable card token stays inside: whoever holds it can charge the card.
  CardSaved: published(p.CardSaved, (d) =>
    pick(d, [
      'paymentMethodId',
      'companyId',
      'customerId',
      'cardBrand',
      'cardLast4',
      'expMonth',
      'expYear',
      'paymentId',
      'savedBy',
      'savedAt',
    ]),
  ),
  CardRemoved: published(p.CardRemoved, (d) =>
    pick(d, ['paymentMethodId', 'companyId', 'customerId', 'removedBy', 'removedAt']),
  ),
  // The provider's own ids (providerTransferId, providerEventId) stay inside.
  EtransferRequested: published(p.EtransferRequested, (d) => ({
    ...pick(d, [
      'etransferId',
      'companyId',
      'customerId',
      'recipientEmail',
      'amountCents',
      'currency',
      'message',
      'reference',
      'requestedBy',
      'requestedAt',
      'expiresAt',
    ]),
    invoiceId: d.invoiceId ?? null,
    orderId: d.orderId ?? null,
  })),
  EtransferSent: published(p.EtransferSent, (d) => pick(d, ['etransferId', 'companyId', 'sentAt'])),
  EtransferDeposited: published(p.EtransferDeposited, (d) =>
    pick(d, ['etransferId', 'companyId', 'amountCents', 'currency', 'depositedAt']),
  ),
  EtransferDeclined: published(p.EtransferDeclined, (d) =>
    pick(d, ['etransferId', 'companyId', 'declinedAt']),
  ),
  EtransferCancelled: published(p.EtransferCancelled, (d) =>
    pick(d, ['etransferId', 'companyId', 'cancelledBy', 'cancelledAt']),
  ),
  EtransferExpired: published(p.EtransferExpired, (d) =>
    pick(d, ['etransferId', 'companyId', 'expiredAt']),
  ),
  IncomingEtransferReceived: published(p.IncomingEtransferReceived, (d) =>
    pick(d, [
      'etransferId',
      'companyId',
      'fromEmail',
      'amountCents',
      'currency',
      'reference',
      'customerId',
      'matchedBy',
      'receivedAt',
    ]),
  ),
  EtransferMatched: published(p.EtransferMatched, (d) =>
    pick(d, ['etransferId', 'companyId', 'customerId', 'reason', 'matchedBy', 'matchedAt']),
  ),
  PayoutRequested: published(p.PayoutRequested, (d) =>
    pick(d, [
      'etransferId',
      'companyId',
      'customerId',
      'recipientEmail',
      'amountCents',
      'currency',
      'message',
      'requestedBy',
      'requestedAt',
    ]),
  ),
  PayoutSent: published(p.PayoutSent, (d) => pick(d, ['etransferId', 'companyId', 'sentAt'])),
  PayoutFailed: published(p.PayoutFailed, (d) =>
    pick(d, ['etransferId', 'companyId', 'amountCents', 'reason', 'failedAt']),
  ),
  WalletCredited: unpublished(walletReason),
  WalletDebited: unpublished(walletReason),
  ...billingMappings(),
  ...documentMappings(),
  FundingRoundHandleReserved: unpublished(roundHandleReason),
  FundingRoundHandleReleased: unpublished(roundHandleReason),
} satisfies { [Type in InternalEventType]: Mapping<Type> };

export type PublishedEventType = {
  [Type in keyof typeof integrationMappings]: (typeof integrationMappings)[Type] extends {
    published: true;
  }
    ? Type
    : never;
}[keyof typeof integrationMappings];

export function integrationMapping(type: string): Mapping<InternalEventType> | undefined {
  return Object.hasOwn(integrationMappings, type)
    ? integrationMappings[type as InternalEventType]
    : undefined;
}

/**
 * Plans, subscriptions, invoices, billing settings, the cap table, funding rounds and token orders
 * carry no secret: their public payload is
 * the internal event's data, field for field (strict, so a new internal field must be added here
 * on purpose).
 */
function billingMappings() {
  const schemas = {
    ...planEventSchemas,
    ...subscriptionEventSchemas,
    ...billingSettingsEventSchemas,
    ...capTableEventSchemas,
    ...fundingRoundEventSchemas,
    ...tokenOrderEventSchemas,
  };
  type BillingType = keyof typeof schemas;
  const entries = Object.entries(schemas).map(([type, schema]) => [
    type,
    published(z.strictObject(schema.shape), (data) => data as never),
  ]);
  return Object.fromEntries(entries) as {
    [Type in BillingType]: PublishedMapping<Type, z.ZodType<DataOf<Type>>>;
  };
}

/**
 * Documents and signature requests: the internal data field for field, except where a signer
 * acted from (IP address, user agent): personal data kept for the audit trail, not for consumers.
 */
function documentMappings() {
  const schemas = { ...documentEventSchemas, ...signatureRequestEventSchemas };
  type DocumentType = keyof typeof schemas;
  const entries = Object.entries(schemas).map(([type, schema]) => {
    const { ip: _ip, userAgent: _userAgent, ...shape } = schema.shape as Record<string, z.ZodType>;
    const published_ = published(z.strictObject(shape), (data) => {
      const { ip: _i, userAgent: _u, ...rest } = data as Record<string, unknown>;
      return rest as never;
    });
    return [type, published_];
  });
  return Object.fromEntries(entries) as {
    [Type in DocumentType]: PublishedMapping<Type, z.ZodType>;
  };
}
