import { CacheProvider } from '@emotion/react';
import {
  lazy,
  type ReactElement,
  useDeferredValue,
  useEffect,
  useMemo,
  useSyncExternalStore,
} from 'react';
import { Admin, CustomRoutes, Resource } from 'react-admin';
import { BrowserRouter, Navigate, Route } from 'react-router-dom';
import { dataProvider } from './dataAccess/dataProvider';
import { queryClient } from './dataAccess/queryClient';
import AccessRefused from './errors/AccessRefused';
import { createI18nProvider } from './i18n/i18nProvider';
import { currentLocale, subscribeToLocale } from './i18n/localeStore';
import { directionOf } from './i18n/locales';
import { PortalLayout } from './layout/PortalLayout';
import { PortalNotification } from './layout/PortalNotification';
import { Guard } from './navigation/Guard';
import { Home } from './navigation/Home';
import { authProvider } from './session/authProvider';
import { emotionCacheFor } from './theme/directionCache';
import { useSettings } from './theme/settingsStore';
import { portalTheme } from './theme/themes';

const LoginPage = lazy(() => import('./auth/LoginPage'));
const RegisterPage = lazy(() => import('./auth/RegisterPage'));
const LogoutPage = lazy(() => import('./auth/LogoutPage'));
const NotFoundPage = lazy(() => import('./errors/NotFoundPage'));
const ServerErrorPage = lazy(() => import('./errors/ServerErrorPage'));
const ProfilePage = lazy(() => import('./profile/ProfilePage'));
const AccountPage = lazy(() => import('./profile/AccountPage'));
const CompanyList = lazy(() => import('./companies/CompanyList'));
const CustomerList = lazy(() => import('./customers/CustomerList'));
const CustomerPage = lazy(() => import('./customers/CustomerPage'));
const TransactionList = lazy(() => import('./transactions/TransactionList'));
const PendingPaymentList = lazy(() => import('./pendingPayments/PendingPaymentList'));
const EtransferList = lazy(() => import('./etransfers/EtransferList'));
const SubscriptionList = lazy(() => import('./subscriptions/SubscriptionList'));
const AuditList = lazy(() => import('./audit/AuditList'));
const CapTablePage = lazy(() => import('./capTable/CapTablePage'));
const DocumentsScreen = lazy(() => import('./documents/DocumentsScreen'));
// With its charts (@mui/x-charts): loaded only when the dashboard opens, outside the first screen.
const DashboardPage = lazy(() => import('./dashboard/DashboardPage'));
const RoundsPage = lazy(() => import('./fundingRounds/RoundsPage'));
const RoundPage = lazy(() => import('./fundingRounds/RoundPage'));
const OrdersScreen = lazy(() => import('./fundingRounds/OrdersScreen'));

/** The seed's list routes: `/<list>` opens `/<list>/all`; `/<list>/:view` is the list's view. */
const listRedirects = [
  'customers',
  'transactions',
  'pendingpayments',
  'etransfers',
  'subscriptions',
  'nftorders',
];

/** Every screen of the shell with the navigation item that decides who may open it. */
const guardedScreens: { path: string; item: string; screen: ReactElement }[] = [
  { path: '/profile', item: 'profile', screen: <ProfilePage /> },
  { path: '/pages/profile', item: 'my-profile', screen: <AccountPage /> },
  { path: '/dashboard', item: 'dashboard', screen: <DashboardPage /> },
  { path: '/documents', item: 'documents', screen: <DocumentsScreen /> },
  { path: '/customers/:view', item: 'customers', screen: <CustomerList /> },
  { path: '/customers/:view/:id', item: 'customers', screen: <CustomerPage /> },
  { path: '/transactions/:view', item: 'transactions', screen: <TransactionList /> },
  { path: '/pendingpayments/:view', item: 'pendingpayments', screen: <PendingPaymentList /> },
  { path: '/etransfers/:view', item: 'etransfers', screen: <EtransferList /> },
  { path: '/subscriptions/:view', item: 'subscriptions', screen: <SubscriptionList /> },
  { path: '/audit', item: 'audit', screen: <AuditList /> },
  { path: '/nftorders/:view', item: 'nftorders', screen: <OrdersScreen /> },
  { path: '/fundingrounds', item: 'rounds', screen: <RoundsPage /> },
  { path: '/captable', item: 'captable', screen: <CapTablePage /> },
  {
    path: '/fundingrounds/round/:productId/:productHandle?',
    item: 'rounds',
    screen: <RoundPage />,
  },
];

const i18nProvider = createI18nProvider(currentLocale());

function RedirectTo404() {
  return <Navigate to="/errors/error-404" replace />;
}

export function App() {
  const locale = useSyncExternalStore(subscribeToLocale, currentLocale);
  const direction = directionOf(locale);
  // Restyling every component for a new theme is the costliest render there is: deferred, it
  // runs in the background and the settings panel answers the click at once.
  const themeName = useDeferredValue(useSettings().theme.main);
  const theme = useMemo(() => portalTheme(themeName, direction), [themeName, direction]);
  useEffect(() => document.getElementById('splash')?.remove(), []);
  return (
    <CacheProvider value={emotionCacheFor(direction)}>
      {/* Real paths (/customers/all), not react-admin's default hash router: the server answers them. */}
      <BrowserRouter>
        <Admin
          title="Issuer Portal"
          authProvider={authProvider}
          dataProvider={dataProvider}
          queryClient={queryClient}
          i18nProvider={i18nProvider}
          theme={theme}
          darkTheme={null}
          layout={PortalLayout}
          loginPage={LoginPage}
          dashboard={Home}
          catchAll={RedirectTo404}
          accessDenied={AccessRefused}
          notification={PortalNotification}
          disableTelemetry
        >
          <Resource name="companies" list={CompanyList} />
          <CustomRoutes noLayout>
            <Route path="/register" element={<RegisterPage />} />
            <Route path="/logout" element={<LogoutPage />} />
            <Route path="/errors/error-404" element={<NotFoundPage />} />
            <Route path="/errors/error-500" element={<ServerErrorPage />} />
          </CustomRoutes>
          <CustomRoutes>
            {listRedirects.map((list) => (
              <Route
                key={list}
                path={`/${list}`}
                element={<Navigate to={`/${list}/all`} replace />}
              />
            ))}
            <Route path="/apps/e-commerce" element={<Navigate to="/fundingrounds" replace />} />
            {guardedScreens.map(({ path, item, screen }) => (
              <Route key={path} path={path} element={<Guard item={item}>{screen}</Guard>} />
            ))}
          </CustomRoutes>
        </Admin>
      </BrowserRouter>
    </CacheProvider>
  );
}
