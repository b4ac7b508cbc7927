import { z } from 'zod';

/**
 * Events of the Customer stream (`Customer-<customerId>`, one per customer, its company id in the
 * data and the metadata) and of the customer email reservation stream
 * (`CustomerEmail-<companyId>:<lower-cased email>`), which keeps an email unique within a company.
 * Names and fields are stable forever: add optional fields, never rename.
 */

export const investorStatuses = [
  'Not Registered',
  'Registered with the product',
  'KYC Under Review',
  'KYC Failed',
  'KYC Complete',
  'Documents Signed',
  'Funds Received',
  'Distribute Tokens',
  'Complete',
  'Cancelled',
  'Refunded',
] as const;
export type InvestorStatus = (typeof investorStatuses)[number];
export const investorStatus = z.enum(investorStatuses);

export const leadStatuses = ['Cold', 'Warm', 'Hot'] as const;
export type LeadStatus = (typeof leadStatuses)[number];
export const leadStatus = z.enum(leadStatuses);

/** How a status change relates to the workflow: reversals and failures carry a reason. */
export const transitionKinds = ['forward', 'failure', 'reversal'] as const;
export type TransitionKind = (typeof transitionKinds)[number];

/** The fields a person edits; status, lead status and the star have commands of their own. */
export const customerProfile = z.object({
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
});
export type CustomerProfile = z.infer<typeof customerProfile>;
export const customerProfileFields = Object.keys(
  customerProfile.shape,
) as (keyof CustomerProfile)[];

/** A profile with every field blank: what a new customer has beyond what was sent. */
export const emptyCustomerProfile: CustomerProfile = {
  name: '',
  lastName: '',
  nickname: '',
  avatar: '',
  company: '',
  jobTitle: '',
  email: '',
  phone: '',
  address: '',
  birthday: '',
  notes: '',
  tags: [],
  roundId: '',
  tokenPrice: null,
  tokenBalance: null,
  percentageOwned: null,
  walletAddress: '',
};

const ids = { customerId: z.string(), companyId: z.string() };

export const customerAddedData = z.object({
  ...ids,
  profile: customerProfile,
  leadStatus,
  investorStatus,
  starred: z.boolean(),
  addedAt: z.string(),
});
export const customerUpdatedData = z.object({ ...ids, changes: customerProfile.partial() });
export const customerRemovedData = z.object({
  ...ids,
  email: z.string(),
  reason: z.string().nullable(),
});
export const customerStarredData = z.object(ids);
export const customerUnstarredData = z.object(ids);
export const investorStatusChangedData = z.object({
  ...ids,
  from: investorStatus,
  to: investorStatus,
  kind: z.enum(transitionKinds),
  reason: z.string().nullable(),
  /** A note or a document reference backing the change. */
  evidence: z.string().nullable(),
  changedBy: z.string(),
  changedAt: z.string(),
});
export const leadStatusChangedData = z.object({ ...ids, from: leadStatus, to: leadStatus });
export const pushNotificationSentData = z.object({
  ...ids,
  notificationId: z.string(),
  title: z.string(),
  message: z.string(),
});

export const customerEmailReservedData = z.object({
  companyId: z.string(),
  email: z.string(),
  customerId: z.string(),
});
export const customerEmailReleasedData = customerEmailReservedData;

type Event<Type extends string, Schema extends z.ZodType> = { type: Type; data: z.infer<Schema> };

export type CustomerAdded = Event<'CustomerAdded', typeof customerAddedData>;
export type CustomerUpdated = Event<'CustomerUpdated', typeof customerUpdatedData>;
export type CustomerRemoved = Event<'CustomerRemoved', typeof customerRemovedData>;
export type CustomerStarred = Event<'CustomerStarred', typeof customerStarredData>;
export type CustomerUnstarred = Event<'CustomerUnstarred', typeof customerUnstarredData>;
export type InvestorStatusChanged = Event<
  'InvestorStatusChanged',
  typeof investorStatusChangedData
>;
export type LeadStatusChanged = Event<'LeadStatusChanged', typeof leadStatusChangedData>;
export type PushNotificationSent = Event<'PushNotificationSent', typeof pushNotificationSentData>;

export type CustomerEvent =
  | CustomerAdded
  | CustomerUpdated
  | CustomerRemoved
  | CustomerStarred
  | CustomerUnstarred
  | InvestorStatusChanged
  | LeadStatusChanged
  | PushNotificationSent;

export type CustomerEmailReserved = Event<
  'CustomerEmailReserved',
  typeof customerEmailReservedData
>;
export type CustomerEmailReleased = Event<
  'CustomerEmailReleased',
  typeof customerEmailReleasedData
>;
export type CustomerEmailReservationEvent = CustomerEmailReserved | CustomerEmailReleased;

export const customerEventSchemas = {
  CustomerAdded: customerAddedData,
  CustomerUpdated: customerUpdatedData,
  CustomerRemoved: customerRemovedData,
  CustomerStarred: customerStarredData,
  CustomerUnstarred: customerUnstarredData,
  InvestorStatusChanged: investorStatusChangedData,
  LeadStatusChanged: leadStatusChangedData,
  PushNotificationSent: pushNotificationSentData,
} as const satisfies Record<CustomerEvent['type'], z.ZodType>;

export const customerEmailReservationEventSchemas = {
  CustomerEmailReserved: customerEmailReservedData,
  CustomerEmailReleased: customerEmailReleasedData,
} as const satisfies Record<CustomerEmailReservationEvent['type'], z.ZodType>;

export const customerEventTypes = Object.keys(customerEventSchemas) as CustomerEvent['type'][];

/** Narrows a stored event to a customer event by its type; undefined for any other type. */
export function asCustomerEvent(event: { type: string; data: unknown }): CustomerEvent | undefined {
  return Object.hasOwn(customerEventSchemas, event.type) ? (event as CustomerEvent) : undefined;
}
