import type { UserEvent } from '@issuer/events';

export type User =
  | { status: 'unregistered' }
  | {
      status: 'active';
      userId: string;
      companyId: string;
      email: string;
      displayName: string;
      roles: readonly string[];
      passwordHash: string;
      /** Tokens issued under an older version are rejected. */
      passwordVersion: number;
    };

export const initialUser = (): User => ({ status: 'unregistered' });

export function evolveUser(state: User, event: UserEvent): User {
  if (event.type === 'UserRegistered') {
    const { userId, companyId, email, displayName, roles, passwordHash } = event.data;
    return {
      status: 'active',
      userId,
      companyId,
      email,
      displayName,
      roles,
      passwordHash,
      passwordVersion: 0,
    };
  }
  if (state.status === 'unregistered') return state;
  switch (event.type) {
    case 'UserSettingsUpdated':
      // Lives in the UserSettings stream; nothing here depends on it.
      return state;
    case 'UserPasswordChanged':
      return {
        ...state,
        passwordHash: event.data.passwordHash,
        passwordVersion: event.data.passwordVersion,
      };
    case 'UserSignedOut':
      return state;
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}
