import type { SvgIconComponent } from '@mui/icons-material';
import AccountCircle from '@mui/icons-material/AccountCircle';
import Apartment from '@mui/icons-material/Apartment';
import Business from '@mui/icons-material/Business';
import CurrencyExchange from '@mui/icons-material/CurrencyExchange';
import Dashboard from '@mui/icons-material/Dashboard';
import Description from '@mui/icons-material/Description';
import Logout from '@mui/icons-material/Logout';
import PendingActions from '@mui/icons-material/PendingActions';
import People from '@mui/icons-material/People';
import Policy from '@mui/icons-material/Policy';
import ReceiptLong from '@mui/icons-material/ReceiptLong';
import Rocket from '@mui/icons-material/RocketLaunch';
import Subscriptions from '@mui/icons-material/Subscriptions';
import TableChart from '@mui/icons-material/TableChart';
import Token from '@mui/icons-material/Token';
import type { SessionUser } from '../session/sessionUser';
import { authRoles, satisfiesAuth } from './roles';

/** `verified`: only for a verified company; `issuer`: only for a verified issuer. */
type Gate = 'verified' | 'issuer';

export interface NavigationItem {
  id: string;
  /** Translation key of the label. */
  title: string;
  url: string;
  icon: SvgIconComponent;
  auth?: readonly string[];
  gate?: Gate;
}

export interface NavigationGroup {
  id: string;
  title: string;
  children: NavigationItem[];
}

const companyStaff = authRoles.user;

/** The seed's navigation groups, in order. */
export const navigation: NavigationGroup[] = [
  {
    id: 'company-profile',
    title: 'app.nav.company_profile',
    children: [
      {
        id: 'profile',
        title: 'app.nav.profile',
        url: '/profile',
        icon: Business,
        auth: companyStaff,
      },
      {
        id: 'dashboard',
        title: 'app.nav.dashboard',
        url: '/dashboard',
        icon: Dashboard,
        auth: companyStaff,
      },
      {
        id: 'documents',
        title: 'app.nav.documents',
        url: '/documents',
        icon: Description,
        auth: companyStaff,
      },
    ],
  },
  {
    id: 'customers-group',
    title: 'app.nav.customers_group',
    children: [
      {
        id: 'customers',
        title: 'app.nav.customers',
        url: '/customers/all',
        icon: People,
        auth: authRoles.customerReaders,
        gate: 'verified',
      },
    ],
  },
  {
    id: 'transactions-group',
    title: 'app.nav.transactions_group',
    children: [
      {
        id: 'transactions',
        title: 'app.nav.transactions',
        url: '/transactions/all',
        icon: ReceiptLong,
        auth: authRoles.customerReaders,
        gate: 'verified',
      },
      {
        id: 'etransfers',
        title: 'app.nav.etransfers',
        url: '/etransfers/all',
        icon: CurrencyExchange,
        // Compliance reads e-transfers as it reads transactions; the commands need a user role.
        auth: authRoles.customerReaders,
        gate: 'verified',
      },
      {
        id: 'nftorders',
        title: 'app.nav.nftorders',
        url: '/nftorders/all',
        icon: Token,
        auth: companyStaff,
        // Token orders belong to funding rounds: issuers only, as the API answers.
        gate: 'issuer',
      },
    ],
  },
  {
    id: 'pendingpayments-group',
    title: 'app.nav.pendingpayments_group',
    children: [
      {
        id: 'pendingpayments',
        title: 'app.nav.pendingpayments',
        url: '/pendingpayments/all',
        icon: PendingActions,
        auth: authRoles.customerReaders,
        gate: 'verified',
      },
    ],
  },
  {
    id: 'subscriptions-group',
    title: 'app.nav.subscriptions_group',
    children: [
      {
        id: 'subscriptions',
        title: 'app.nav.subscriptions',
        url: '/subscriptions/all',
        icon: Subscriptions,
        auth: companyStaff,
        gate: 'verified',
      },
    ],
  },
  {
    id: 'audit-group',
    title: 'app.nav.audit_group',
    children: [
      {
        id: 'audit',
        title: 'app.nav.audit',
        url: '/audit',
        icon: Policy,
        auth: authRoles.auditReaders,
      },
    ],
  },
  {
    id: 'rounds-group',
    title: 'app.nav.rounds_group',
    children: [
      {
        id: 'rounds',
        title: 'app.nav.rounds',
        url: '/fundingrounds',
        icon: Rocket,
        auth: companyStaff,
        gate: 'issuer',
      },
      {
        id: 'captable',
        title: 'app.nav.captable',
        url: '/captable',
        icon: TableChart,
        auth: authRoles.customerReaders,
        gate: 'issuer',
      },
    ],
  },
  {
    id: 'platform',
    title: 'app.nav.platform',
    children: [
      {
        id: 'companies',
        title: 'app.nav.companies',
        url: '/companies',
        icon: Apartment,
        auth: authRoles.operator,
      },
    ],
  },
  {
    id: 'account-management',
    title: 'app.nav.account_management',
    children: [
      {
        id: 'my-profile',
        title: 'app.nav.my_profile',
        url: '/pages/profile',
        icon: AccountCircle,
        auth: authRoles.signedIn,
      },
      {
        id: 'logout',
        title: 'app.nav.logout',
        url: '/logout',
        icon: Logout,
        auth: authRoles.signedIn,
      },
    ],
  },
];

function passesGate(gate: Gate | undefined, user: SessionUser | null): boolean {
  if (gate === undefined) return true;
  const verified = user?.data.verified === 1;
  return gate === 'verified' ? verified : verified && user?.isIssuer === true;
}

export function canOpen(item: NavigationItem, user: SessionUser | null): boolean {
  return satisfiesAuth(item.auth, user?.role ?? []) && passesGate(item.gate, user);
}

/**
 * Why this user may not open the item: their company still awaits verification, lacks issuer
 * status, or the item is not for their role at all.
 */
export type Refusal = 'unverified' | 'not_issuer' | 'role';

export function refusalOf(item: NavigationItem, user: SessionUser | null): Refusal | undefined {
  if (canOpen(item, user)) return undefined;
  if (!satisfiesAuth(item.auth, user?.role ?? [])) return 'role';
  return user?.data.verified === 1 ? 'not_issuer' : 'unverified';
}

/** The groups this user sees: items they may open, groups left empty dropped. */
export function visibleNavigation(user: SessionUser | null): NavigationGroup[] {
  return navigation
    .map((group) => ({ ...group, children: group.children.filter((item) => canOpen(item, user)) }))
    .filter((group) => group.children.length > 0);
}

export function navigationItem(id: string): NavigationItem {
  const item = navigation.flatMap((group) => group.children).find((found) => found.id === id);
  if (!item) throw new Error(`No navigation item ${id}`);
  return item;
}
