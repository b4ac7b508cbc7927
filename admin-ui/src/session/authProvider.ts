import { type AuthProvider, HttpError } from 'react-admin';
import { canOpen, navigation } from '../navigation/navigation';
import { callApi, errorCode } from './http';
import { sessionMessages } from './messages';
import { notice } from './notices';
import { endSession, sessionUser, startSession } from './sessionStore';
import type { SessionAnswer, SessionUser } from './sessionUser';
import { readStored, storageKeys } from './storage';
import { isExpired } from './token';

export interface Credentials {
  email: string;
  password: string;
}

export interface RegistrationForm {
  companyName: string;
  companySymbol: string;
  email: string;
  password: string;
}

function begin(answer: SessionAnswer): SessionUser {
  if (!answer.user || !answer.access_token) throw new Error(sessionMessages.failed);
  startSession(answer.user, answer.access_token);
  return answer.user;
}

export async function register(form: RegistrationForm): Promise<SessionUser> {
  return begin(await callApi<SessionAnswer>('/auth/register', { method: 'POST', body: form }));
}

/** Why a stored token no longer signs in: revoked or expired, a suspended company, or else. */
function resumeFailure(error: unknown): string {
  if (errorCode(error) === 'company_suspended') return suspendedMessage;
  if (error instanceof HttpError && error.status === 401) return sessionMessages.invalidToken;
  return sessionMessages.failed;
}

const suspendedMessage = 'app.validation.company_suspended';

/**
 * No answer from the portal (status 0, see `httpClient`) or its 503 (starting, catching up, its
 * database away): nothing is known of the token, so the session waits instead of ending.
 */
function isPassing(error: unknown): boolean {
  return error instanceof HttpError && (error.status === 0 || error.status === 503);
}

const resumeRetryMs = [1_000, 2_000, 4_000, 8_000, 10_000];

/**
 * Signs in with the stored token (`GET /api/auth/access-token`), which answers the user and a
 * fresh token. An expired token, a 401 or an answer without a user end the session. While the
 * server cannot answer, it asks again (1, 2, 4, 8, then every 10 s), telling `onWaiting` each
 * time. Resolves the user, or null for a guest.
 */
export async function resumeSession(onWaiting?: () => void): Promise<SessionUser | null> {
  const token = readStored(storageKeys.token);
  if (!token) return null;
  if (isExpired(token)) {
    endSession();
    notice(sessionMessages.expired, 'warning');
    return null;
  }
  for (let attempt = 0; ; attempt += 1) {
    try {
      // Quietly: a page load is not a sign-in, and a toast on every one covered the toolbar.
      return begin(await callApi<SessionAnswer>('/auth/access-token', { token }));
    } catch (error) {
      if (!isPassing(error)) {
        endSession();
        notice(resumeFailure(error), 'error');
        return null;
      }
      onWaiting?.();
      const pauseMs = resumeRetryMs[Math.min(attempt, resumeRetryMs.length - 1)];
      await new Promise((resume) => setTimeout(resume, pauseMs));
    }
  }
}

/** Revokes the token on the server (best effort) after forgetting the session here. */
async function signOut(): Promise<void> {
  const token = readStored(storageKeys.token);
  endSession();
  if (!token) return;
  await callApi('/auth/logout', { method: 'POST', token }).catch(() => undefined);
}

const guest = { redirectTo: '/login', message: false } as const;

export const authProvider: AuthProvider = {
  async login({ email, password }: Credentials) {
    begin(await callApi<SessionAnswer>('/auth', { method: 'POST', body: { email, password } }));
    notice(sessionMessages.loggedIn, 'success');
  },
  logout: signOut,
  async checkAuth() {
    const token = readStored(storageKeys.token);
    if (!token) throw guest;
    if (isExpired(token)) {
      endSession();
      throw { redirectTo: '/login', message: sessionMessages.expired };
    }
    if (!sessionUser() && !(await resumeSession())) throw guest;
  },
  /**
   * A 401 ends the session at once (no more calls with a dead token) and says why; react-admin
   * only shows its own message while the session is still alive, so the notice is ours.
   */
  async checkError(error: { status?: number }) {
    if (errorCode(error) === 'company_suspended') {
      endSession();
      notice(suspendedMessage, 'error');
      throw { redirectTo: '/login', message: false };
    }
    if (error?.status !== 401) return;
    endSession();
    notice(sessionMessages.invalidToken, 'error');
    throw { redirectTo: '/login', message: false };
  },
  async getIdentity() {
    const user = sessionUser();
    if (!user) throw guest;
    return { id: user.uid, fullName: user.data.companyName, avatar: user.data.photoURL };
  },
  async getPermissions() {
    return sessionUser()?.role ?? [];
  },
  /** Resources are reached through navigation items of the same id (`companies`). */
  async canAccess({ resource }) {
    const item = navigation.flatMap((group) => group.children).find(({ id }) => id === resource);
    return item ? canOpen(item, sessionUser()) : true;
  },
};
