import { useEffect, useRef } from 'react';
import { Notification, useNotificationContext, useNotify } from 'react-admin';
import { LocaleSync } from '../i18n/LocaleSync';
import { deliverNoticesTo } from '../session/notices';

/**
 * Toasts at the bottom centre for 6000 ms, including the session's notices: at the top (seed
 * section 9) they covered the toolbar and the list's search box. While a dialog is open they show
 * at the top instead, where they do not cover its buttons (a refused form's message sat on
 * Cancel and Save). Rendered by react-admin on every page, so it also hosts the locale bridge.
 */
export function PortalNotification() {
  const notify = useNotify();
  const vertical = useRef<'top' | 'bottom'>('bottom');
  // Decided when a toast is queued, and kept while it shows (the queue empties as it opens).
  const { notifications } = useNotificationContext();
  if (notifications.length > 0) vertical.current = dialogOpen() ? 'top' : 'bottom';
  useEffect(
    () =>
      deliverNoticesTo(({ message, type }) => notify(message, { type, autoHideDuration: 6000 })),
    [notify],
  );
  return (
    <>
      <LocaleSync />
      <Notification
        anchorOrigin={{ vertical: vertical.current, horizontal: 'center' }}
        autoHideDuration={6000}
      />
    </>
  );
}

const dialogOpen = () => document.querySelector('.MuiDialog-root') !== null;
