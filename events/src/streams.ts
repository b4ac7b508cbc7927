/** Stream names are always `Category-<id>`; build and parse them here and nowhere else. */
export const streamCategories = {
  company: 'Company',
  user: 'User',
  /** Settings and shortcuts apart from the User stream, so frequent saves never lengthen login. */
  userSettings: 'UserSettings',
  emailReservation: 'UserEmail',
  symbolReservation: 'CompanySymbol',
  /** One stream per customer; the company id travels in each event's data and metadata. */
  customer: 'Customer',
  /** `CustomerEmail-<companyId>:<email>`: an email is unique within its company. */
  customerEmailReservation: 'CustomerEmail',
  /** One stream per card payment: its refunds are appended here, guarded by its revision. */
  payment: 'Payment',
  /** One stream per saved card (a reusable processor token, never a card number). */
  paymentMethod: 'PaymentMethod',
  /** One stream per e-transfer: a money request, an incoming autodeposit or a payout. */
  etransfer: 'ETransfer',
  /** `CompanyWallet-<companyId>`: every credit and debit; a payout appends with its revision. */
  companyWallet: 'CompanyWallet',
  /** One stream per subscription plan. */
  plan: 'Plan',
  /** One stream per subscription, its invoices included (one invoice per period, by revision). */
  subscription: 'Subscription',
  /** `BillingSettings-<companyId>`: the retry schedule and what follows the last failure. */
  billingSettings: 'BillingSettings',
  /** `CapTable-<companyId>`: share classes, issuances and transfers (every cap-table rule). */
  capTable: 'CapTable',
  /** One stream per document: its versions and its removal. */
  document: 'Document',
  /** One stream per signature request (an envelope of documents sent to one customer). */
  signatureRequest: 'SignatureRequest',
  /** One stream per funding round: its terms, states and every token reservation (by revision). */
  fundingRound: 'FundingRound',
  /** `FundingRoundHandle-<companyId>:<handle>`: a round's handle is unique in its company. */
  fundingRoundHandle: 'FundingRoundHandle',
  /** One stream per token order: its lifecycle from placed to complete (or a failure branch). */
  tokenOrder: 'TokenOrder',
} as const;

export type StreamCategory = (typeof streamCategories)[keyof typeof streamCategories];

export function streamName(category: StreamCategory, id: string): string {
  return `${category}-${id}`;
}

export function parseStreamName(streamId: string): { category: string; id: string } {
  const dash = streamId.indexOf('-');
  if (dash < 0) return { category: streamId, id: '' };
  return { category: streamId.slice(0, dash), id: streamId.slice(dash + 1) };
}
