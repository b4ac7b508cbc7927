import type { Projection } from '../projection';
import { companiesProjection } from './companies/companiesProjection';
import { revokedTokensProjection } from './revokedTokens/revokedTokensProjection';
import { usersProjection } from './users/usersProjection';

export {
  type CompanyRow,
  companiesProjection,
  type TerminalRow,
} from './companies/companiesProjection';
export {
  type CompanyList,
  type CompanyListQuery,
  type CompanyProfile,
  type CompanySortField,
  companySortFields,
  getCompanyProfile,
  listCompanies,
} from './companies/queries';
export {
  getTokenStanding,
  type RevokedToken,
  recordRevokedTokens,
  revokedTokensProjection,
  type TokenStanding,
} from './revokedTokens/revokedTokensProjection';
export { anyUserWithRole, getUserWithCompany, type UserWithCompany } from './users/queries';
export { raisePasswordVersion, type UserRow, usersProjection } from './users/usersProjection';

/** The read models of companies, users and authentication, for the composition root. */
export const accountProjections: readonly Projection[] = [
  companiesProjection,
  usersProjection,
  revokedTokensProjection,
];
