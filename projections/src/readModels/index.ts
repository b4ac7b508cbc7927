import type { Projection } from '../projection';
import { capTableProjection } from './capTable/capTableProjection';
import { companiesProjection } from './companies/companiesProjection';
import { customersProjection } from './customers/customersProjection';
import { fundedRoundsProjection } from './customers/fundedRoundsProjection';
import { moneyProjection } from './money/moneyProjection';
import { revokedTokensProjection } from './revokedTokens/revokedTokensProjection';

export {
  TokenStandingCache,
  type TokenStandingCacheOptions,
} from './revokedTokens/tokenStandingCache';
export { TOKEN_STANDING_CHANNEL } from './revokedTokens/tokenStandingNotices';

import { usersProjection } from './users/usersProjection';

export {
  type CompanyRow,
  companiesProjection,
  type TerminalRow,
} from './companies/companiesProjection';
export {
  type CompanyList,
  type CompanyListQuery,
  type CompanyListRow,
  type CompanyProfile,
  type CompanySortField,
  companySortFields,
  getCompanyProfile,
  isCompanySuspended,
  listCompanies,
} from './companies/queries';
export {
  type CustomerRow,
  countKeys,
  customersProjection,
  evolveCustomerRow,
} from './customers/customersProjection';
export {
  type CustomerFilter,
  type CustomerList,
  type CustomerListQuery,
  type CustomerSort,
  type CustomerSortField,
  countCustomersByInvestorStatus,
  customerSortFields,
  getCustomer,
  listCustomers,
  listCustomersJson,
  streamCustomers,
} from './customers/queries';
export {
  getTokenStanding,
  type RevokedToken,
  recordRevokedTokens,
  revokedTokensProjection,
  type TokenStanding,
} from './revokedTokens/revokedTokensProjection';
export {
  anyUserWithRole,
  getUserNames,
  getUserWithCompany,
  type UserWithCompany,
} from './users/queries';
export { raisePasswordVersion, type UserRow, usersProjection } from './users/usersProjection';

/** The read models of companies, users and authentication, for the composition root. */
export const accountProjections: readonly Projection[] = [
  companiesProjection,
  usersProjection,
  revokedTokensProjection,
];

export {
  capTableProjection,
  capTableTables,
  createCapTableProjection,
  defaultCheckpointEvery,
} from './capTable/capTableProjection';

/**
 * The customers read model (list, counts), the cap table's and the customers' funded orders, which
 * the customers' answers read (a holder's tokenBalance and percentageOwned, a customer's
 * roundId), for the composition root.
 */
export const customerProjections: readonly Projection[] = [
  customersProjection,
  capTableProjection,
  fundedRoundsProjection,
];
export { fundedRoundAsOf } from './customers/fundedRoundsProjection';

export {
  type EtransferFilter,
  type EtransferListRow,
  type EtransferSortField,
  type EtransferView,
  etransferSortFields,
  etransferViews,
  getEtransfer,
  listEtransfers,
} from './money/etransferQueries';
export {
  type EtransferKind,
  type EtransferRow,
  type EtransferStatus,
  etransferKinds,
  etransferStatuses,
} from './money/etransferRows';
export {
  getAvailableBalance,
  getAvailableBalanceAsOf,
  getAvailableBalances,
  type LedgerConsistency,
  ledgerConsistency,
} from './money/ledger';
export { moneyProjection } from './money/moneyProjection';
export {
  getPayment,
  listPayments,
  type PaymentFilter,
  type PaymentListQuery,
  type PaymentSortField,
  paymentSortFields,
  pendingPaymentsSummary,
} from './money/paymentQueries';
export {
  type PaymentRow,
  type PaymentStatus,
  paymentStatuses,
  type RefundRow,
} from './money/paymentRows';
export {
  getTransaction,
  listTransactions,
  listTransactionsJson,
  streamTransactions,
  type TransactionFilter,
  type TransactionList,
  type TransactionListQuery,
  type TransactionSortField,
  transactionSortFields,
} from './money/transactionQueries';
export {
  type TransactionKind,
  type TransactionRow,
  transactionKinds,
  transactionStatuses,
} from './money/transactionRows';

/** Payments, transactions and the ledger (one read model), for the composition root. */
export const moneyProjections: readonly Projection[] = [moneyProjection];

export { auditProjection } from './audit/auditProjection';
export { auditEventTypes, auditResources, systemActor } from './audit/auditRows';
export {
  type AuditEntry,
  type AuditFilter,
  type AuditListQuery,
  auditChangesSince,
  type ChangedRecords,
  getAuditEntry,
  lastAuditPosition,
  listAuditJson,
  streamAudit,
} from './audit/queries';
export { AUDIT_CHANGES_CHANNEL } from './audit/schema';
