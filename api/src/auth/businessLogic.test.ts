import type { UserEvent } from '@issuer/events';
import { describe, it } from 'vitest';
import { decideUser } from './businessLogic';
import { deciderSpecification } from './testing/deciderSpecification';
import { evolveUser, initialUser } from './user';

const { given } = deciderSpecification({
  decide: decideUser,
  evolve: evolveUser,
  initialState: initialUser,
});

const userId = 'u-1';
const now = new Date('2025-03-01T10:00:00.000Z');
const registered: UserEvent = {
  type: 'UserRegistered',
  data: {
    userId,
    companyId: 'c-1',
    email: 'ada@acme.test',
    displayName: 'ada',
    passwordHash: 'hash-1',
    roles: ['admin'],
    registeredAt: now.toISOString(),
  },
};

describe('a user who is not registered', () => {
  it('is registered with the roles given', () =>
    given([])
      .when({
        type: 'RegisterUser',
        data: {
          userId,
          companyId: 'c-1',
          email: 'ada@acme.test',
          displayName: 'ada',
          passwordHash: 'hash-1',
          roles: ['admin'],
          now,
        },
      })
      .then([registered]));

  it('has no settings to update', () =>
    given([])
      .when({ type: 'UpdateUserSettings', data: { settings: {}, shortcuts: [] } })
      .thenThrows({ status: 404 }));
});

describe('a registered user', () => {
  it('saves settings and shortcuts', () =>
    given([registered])
      .when({
        type: 'UpdateUserSettings',
        data: { settings: { theme: { main: 'greeny' } }, shortcuts: ['mail'] },
      })
      .then([
        {
          type: 'UserSettingsUpdated',
          data: { userId, settings: { theme: { main: 'greeny' } }, shortcuts: ['mail'] },
        },
      ]));

  it('signs out one token', () =>
    given([registered])
      .when({ type: 'SignOut', data: { tokenId: 'jti-1', expiresAt: now } })
      .then([
        {
          type: 'UserSignedOut',
          data: { userId, tokenId: 'jti-1', expiresAt: now.toISOString() },
        },
      ]));

  it('changes the password to version 1', () =>
    given([registered])
      .when({ type: 'ChangePassword', data: { passwordHash: 'hash-2', now } })
      .then([
        {
          type: 'UserPasswordChanged',
          data: {
            userId,
            passwordHash: 'hash-2',
            passwordVersion: 1,
            changedAt: now.toISOString(),
          },
        },
      ]));
});

describe('a user who changed the password once', () => {
  it('moves to version 2 on the next change', () =>
    given([
      registered,
      {
        type: 'UserPasswordChanged',
        data: { userId, passwordHash: 'hash-2', passwordVersion: 1, changedAt: now.toISOString() },
      },
    ])
      .when({ type: 'ChangePassword', data: { passwordHash: 'hash-3', now } })
      .then([
        {
          type: 'UserPasswordChanged',
          data: {
            userId,
            passwordHash: 'hash-3',
            passwordVersion: 2,
            changedAt: now.toISOString(),
          },
        },
      ]));

  it('cannot be registered again', () =>
    given([registered])
      .when({
        type: 'RegisterUser',
        data: {
          userId,
          companyId: 'c-1',
          email: 'x@acme.test',
          displayName: 'x',
          passwordHash: 'h',
          roles: [],
          now,
        },
      })
      .thenThrows({ status: 409 }));
});
