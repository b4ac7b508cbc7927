import { parseStreamName, type StreamCategory } from '../streams';

/**
 * Topic of each stream category, after the configurable prefix (`issuer.companies.v1`). The
 * version changes only with an incompatible payload change, as a new topic beside the old one.
 * `undefined`: the category's events stay internal (see integrationMappings for why).
 */
export const topicOfCategory = {
  Company: 'companies.v1',
  CompanySymbol: undefined,
  User: 'users.v1',
  UserSettings: 'users.v1',
  UserEmail: undefined,
  Customer: 'customers.v1',
  CustomerEmail: undefined,
  Payment: 'payments.v1',
  PaymentMethod: 'payments.v1',
  ETransfer: 'etransfers.v1',
  CompanyWallet: undefined,
  Plan: 'subscriptions.v1',
  Subscription: 'subscriptions.v1',
  BillingSettings: 'subscriptions.v1',
  CapTable: 'funding.v1',
  Document: 'documents.v1',
  SignatureRequest: 'documents.v1',
  FundingRound: 'funding.v1',
  FundingRoundHandle: undefined,
  TokenOrder: 'orders.v1',
} as const satisfies Record<StreamCategory, string | undefined>;

export const defaultTopicPrefix = 'issuer';

/** Every topic the publisher writes to, each once. */
export function integrationTopics(prefix: string): string[] {
  const suffixes = Object.values(topicOfCategory).filter((suffix) => suffix !== undefined);
  return [...new Set(suffixes)].map((suffix) => `${prefix}.${suffix}`);
}

/** The topic for an event of this stream; undefined when the category is not published. */
export function topicOfStream(prefix: string, streamId: string): string | undefined {
  const { category } = parseStreamName(streamId);
  if (!Object.hasOwn(topicOfCategory, category)) {
    throw new Error(`Stream ${streamId}: category ${category} has no entry in topicOfCategory`);
  }
  const suffix = topicOfCategory[category as StreamCategory];
  return suffix === undefined ? undefined : `${prefix}.${suffix}`;
}
