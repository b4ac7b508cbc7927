import type { ReactNode } from 'react';
import { Loading, useAuthenticated } from 'react-admin';
import { Navigate, useLocation } from 'react-router-dom';
import AccessRefused from '../errors/AccessRefused';
import { useSessionUser } from '../session/sessionStore';
import { readStored, storageKeys } from '../session/storage';
import { navigationItem, refusalOf } from './navigation';

/**
 * A page behind a navigation item: a guest goes to /login (and comes back after signing in);
 * a user whose role or company may not open the item is refused, even by typed address.
 */
export function Guard({ item, children }: { item: string; children: ReactNode }) {
  const location = useLocation();
  // Without a token there is nothing to check: straight to /login. react-admin's check would log
  // the guest out first, and its store reset re-rendered this page into a redirect loop that
  // Chromium throttled for ten seconds.
  if (!readStored(storageKeys.token)) {
    const next = { nextPathname: location.pathname, nextSearch: location.search };
    return <Navigate to="/login" state={next} replace />;
  }
  return <SignedInGuard item={item}>{children}</SignedInGuard>;
}

function SignedInGuard({ item, children }: { item: string; children: ReactNode }) {
  useAuthenticated();
  const user = useSessionUser();
  if (!user) return <Loading />;
  const refusal = refusalOf(navigationItem(item), user);
  if (refusal) return <AccessRefused reason={refusal} />;
  return children;
}
