import { conflict, notFound, type UserEvent, type UserSettings } from '@issuer/events';
import { evolveUser, initialUser, type User } from './user';

export type RegisterUser = {
  type: 'RegisterUser';
  data: {
    userId: string;
    companyId: string;
    email: string;
    displayName: string;
    passwordHash: string;
    roles: readonly string[];
    now: Date;
  };
};
export type UpdateUserSettings = {
  type: 'UpdateUserSettings';
  data: { settings: UserSettings; shortcuts: readonly string[] };
};
/** The caller has already proven the current password; the new one arrives hashed. */
export type ChangePassword = {
  type: 'ChangePassword';
  data: { passwordHash: string; now: Date };
};
export type SignOut = {
  type: 'SignOut';
  data: { tokenId: string; sessionId?: string; expiresAt: Date };
};

export type UserCommand = RegisterUser | UpdateUserSettings | ChangePassword | SignOut;

type Active = Extract<User, { status: 'active' }>;

export function decideUser(command: UserCommand, state: User): UserEvent[] {
  if (command.type === 'RegisterUser') return registerUser(command, state);
  if (state.status === 'unregistered') throw notFound('User');
  switch (command.type) {
    case 'UpdateUserSettings':
      return updateSettings(command, state);
    case 'ChangePassword':
      return changePassword(command, state);
    case 'SignOut':
      return signOut(command, state);
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}

function registerUser({ data }: RegisterUser, state: User): UserEvent[] {
  if (state.status !== 'unregistered') throw conflict('This user is already registered');
  const { userId, companyId, email, displayName, passwordHash, roles, now } = data;
  return [
    {
      type: 'UserRegistered',
      data: {
        userId,
        companyId,
        email,
        displayName,
        passwordHash,
        roles: [...roles],
        registeredAt: now.toISOString(),
      },
    },
  ];
}

function updateSettings(command: UpdateUserSettings, state: Active): UserEvent[] {
  return [settingsUpdated(state.userId, command)];
}

/**
 * Saving settings depends on nothing in the user's state but their existence, which the verified
 * token proves: the route appends this blindly to the user's UserSettings stream (the benchmark
 * command), and login never folds settings saves.
 */
export function settingsUpdated(
  userId: string,
  { data }: UpdateUserSettings,
): Extract<UserEvent, { type: 'UserSettingsUpdated' }> {
  return {
    type: 'UserSettingsUpdated',
    data: { userId, settings: data.settings, shortcuts: [...data.shortcuts] },
  };
}

function changePassword({ data }: ChangePassword, state: Active): UserEvent[] {
  return [
    {
      type: 'UserPasswordChanged',
      data: {
        userId: state.userId,
        passwordHash: data.passwordHash,
        passwordVersion: state.passwordVersion + 1,
        changedAt: data.now.toISOString(),
      },
    },
  ];
}

function signOut({ data }: SignOut, state: Active): UserEvent[] {
  return [
    {
      type: 'UserSignedOut',
      data: {
        userId: state.userId,
        tokenId: data.tokenId,
        ...(data.sessionId === undefined ? {} : { sessionId: data.sessionId }),
        expiresAt: data.expiresAt.toISOString(),
      },
    },
  ];
}

export const userDecider = { initialState: initialUser, evolve: evolveUser, decide: decideUser };
