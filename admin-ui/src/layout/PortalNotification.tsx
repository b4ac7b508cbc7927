import { useEffect } from 'react';
import { Notification, useNotify } from 'react-admin';
import { LocaleSync } from '../i18n/LocaleSync';
import { deliverNoticesTo } from '../session/notices';

/**
 * Toasts at the bottom centre for 6000 ms, including the session's notices: at the top (seed
 * section 9) they covered the toolbar and the list's search box.
 * Rendered by react-admin on every page, so it also hosts the locale bridge.
 */
export function PortalNotification() {
  const notify = useNotify();
  useEffect(
    () =>
      deliverNoticesTo(({ message, type }) => notify(message, { type, autoHideDuration: 6000 })),
    [notify],
  );
  return (
    <>
      <LocaleSync />
      <Notification
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        autoHideDuration={6000}
      />
    </>
  );
}
