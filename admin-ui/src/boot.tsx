import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { loadMessages } from './i18n/i18nProvider';
import { currentLocale } from './i18n/localeStore';
import { resumeSession } from './session/authProvider';
import { readStored, storageKeys } from './session/storage';

/**
 * Before the first render: the language's messages and, with a stored token, the sign-in
 * through `GET /api/auth/access-token`, while index.html's splash (logo, spinner) shows.
 */
export async function start() {
  const messages = await loadMessages(currentLocale());
  const { session } = messages.app as { session: { logging_in: string; waiting: string } };
  const splashStatus = document.getElementById('splash-status');
  const say = (text: string) => {
    if (splashStatus) splashStatus.textContent = text;
  };
  if (readStored(storageKeys.token)) say(session.logging_in);
  const [{ App }] = await Promise.all([import('./App'), resumeSession(() => say(session.waiting))]);
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root');
  // A transition renders in slices that yield to the browser, instead of one long task that
  // blocks input while the whole admin mounts (Lighthouse's total blocking time).
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}
