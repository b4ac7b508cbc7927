import { randomUUID } from 'node:crypto';
import { DomainError, invalid, streamCategories, streamName, userSettings } from '@issuer/events';
import { isCompanySuspended, raisePasswordVersion, recordRevokedTokens } from '@issuer/projections';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import {
  type AppEnv,
  appendEvents,
  clientAddress,
  decideAndAppend,
  errorResponse,
  type Feature,
  idempotent,
  jsonBody,
  loadState,
  waitForReadModels,
} from '../http';
import { openAccount, requestStreamCommands } from './accounts';
import { authenticate, authenticatedToken, bearerToken, companySuspended } from './authenticate';
import { settingsUpdated, userDecider } from './businessLogic';
import {
  companyNameField,
  companySymbolField,
  emailField,
  loginSchema,
  newPasswordField,
  normalizeEmail,
  passwordsDoNotMatch,
} from './credentials';
import { emailReservationDecider } from './emailReservation';
import { forgetIdleLoginBuckets, recordLoginSuccess, reserveLoginAttempt } from './loginThrottle';
import { hashPassword, verifyAgainstDummyHash, verifyPassword } from './passwords';
import { hasControlCharacters, printableOnlyMessage, storableJsonProblem } from './storableJson';
import { signAccessToken, type TokenSubject, verifyAccessToken } from './tokens';
import type { User } from './user';

type ActiveUser = Extract<User, { status: 'active' }>;

import {
  answerDescription,
  bearerAuthDescription,
  describedAs,
  describeRoute,
  errorResponseRef,
} from '../http/openapiSpec';
import { sessionAnswerSchema } from './responses';
import { loadSessionUser } from './userObject';

const confirmationFields = ['confirm', 'passwordConfirm'] as const;

const registerSchema = z
  .strictObject({
    companyName: companyNameField,
    companySymbol: companySymbolField,
    email: emailField,
    password: newPasswordField,
    confirm: z.string().max(1024).optional(),
    passwordConfirm: z.string().max(1024).optional(),
  })
  .superRefine((form, context) => {
    for (const field of confirmationFields) {
      const confirmation = form[field];
      if (confirmation !== undefined && confirmation !== form.password) {
        context.addIssue({ code: 'custom', path: [field], message: passwordsDoNotMatch });
      }
    }
  });

/** The seed's client posts its whole session user; only settings and shortcuts are saved. */
const updateUserSchema = z.strictObject({
  user: z.strictObject({
    role: z.unknown().optional(),
    uid: z.unknown().optional(),
    from: z.unknown().optional(),
    isIssuer: z.unknown().optional(),
    activeTerminalId: z.unknown().optional(),
    data: z.strictObject({
      settings: userSettings.superRefine((settings, context) => {
        const problem = storableJsonProblem(settings);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      }),
      shortcuts: z
        .array(
          z
            .string()
            .max(100)
            .refine((shortcut) => !hasControlCharacters(shortcut), printableOnlyMessage),
        )
        .max(50),
      companyName: z.unknown().optional(),
      fiatBalanceCad: z.unknown().optional(),
      email: z.unknown().optional(),
      photoURL: z.unknown().optional(),
      displayName: z.unknown().optional(),
      terminalDeviceId: z.unknown().optional(),
      terminalDeviceId2: z.unknown().optional(),
      terminalDeviceId3: z.unknown().optional(),
      providers: z.unknown().optional(),
      verified: z.unknown().optional(),
    }),
  }),
});

const changePasswordSchema = z.strictObject({
  currentPassword: z.string().min(1, 'Current password is required').max(1024),
  newPassword: newPasswordField,
});

const wrongCredentials = () =>
  new DomainError(401, 'invalid_credentials', 'Email or password is incorrect', {
    email: 'Check your username/email',
    password: 'Check your password',
  });

/** `{ user, access_token }` with a fresh token: the answer of register, login and re-login. */
async function sessionAnswer(c: Context<AppEnv>, subject: TokenSubject) {
  const { config, clock } = c.var.deps;
  const [user, signed] = await Promise.all([
    loadSessionUser(c, subject),
    signAccessToken(config, subject, { tokenId: randomUUID(), now: clock() }),
  ]);
  return { user, access_token: signed.token };
}

const userStream = (userId: string) => streamName(streamCategories.user, userId);

/** The user behind an email, read from the write side: login never waits on a projection. */
async function userByEmail(c: Context<AppEnv>, email: string): Promise<ActiveUser | undefined> {
  const reservation = await loadState(
    c,
    streamName(streamCategories.emailReservation, email),
    emailReservationDecider,
  );
  if (reservation.state.status !== 'reserved') return undefined;
  const user = await loadState(c, userStream(reservation.state.userId), userDecider);
  return user.state.status === 'active' ? user.state : undefined;
}

export const authRoutes: Feature = () =>
  new Hono<AppEnv>()
    .post(
      '/auth/register',
      describeRoute(
        answerDescription('Register a company and its admin', 200, sessionAnswerSchema),
      ),
      idempotent,
      jsonBody(registerSchema),
      async (c) => {
        const form = c.req.valid('json');
        const ids = { companyId: randomUUID(), userId: randomUUID() };
        const position = await openAccount(requestStreamCommands(c, ids), {
          ...ids,
          email: form.email,
          displayName: form.companyName,
          passwordHash: await hashPassword(form.password),
          roles: ['admin'],
          company: { name: form.companyName, symbol: form.companySymbol },
          now: c.var.deps.clock(),
        });
        await waitForReadModels(c, position);
        return c.json(
          await sessionAnswer(c, {
            ...ids,
            roles: ['admin'],
            passwordVersion: 0,
            sessionId: randomUUID(),
          }),
          200,
        );
      },
    )
    .post(
      '/auth',
      describeRoute(
        describedAs(answerDescription('Sign in', 200, sessionAnswerSchema), {
          responses: {
            401: errorResponseRef('Unauthorized'),
            403: errorResponseRef('Forbidden'),
            429: errorResponseRef('TooManyRequests'),
          },
        }),
      ),
      jsonBody(loginSchema),
      async (c) => {
        const { pool, clock } = c.var.deps;
        const { password } = c.req.valid('json');
        const email = normalizeEmail(c.req.valid('json').email);
        const attempt = await reserveLoginAttempt(
          pool,
          { account: email, address: clientAddress(c) },
          clock(),
        );
        if (attempt.outcome === 'refused') {
          const { retryAfterSeconds } = attempt;
          c.header('Retry-After', String(retryAfterSeconds));
          return errorResponse(
            c,
            429,
            'too_many_attempts',
            `Too many failed logins: try again in ${retryAfterSeconds} seconds`,
          );
        }
        const user = await userByEmail(c, email);
        const verified = user
          ? await verifyPassword(user.passwordHash, password)
          : await verifyAgainstDummyHash(password);
        if (!user || !verified) {
          // The reservation already counted this failure.
          await forgetIdleLoginBuckets(pool, clock());
          throw wrongCredentials();
        }
        await recordLoginSuccess(pool, attempt, clock());
        const { userId, companyId, roles, passwordVersion } = user;
        if (await isCompanySuspended(pool, companyId)) throw companySuspended();
        return c.json(
          await sessionAnswer(c, {
            userId,
            companyId,
            roles,
            passwordVersion,
            sessionId: randomUUID(),
          }),
          200,
        );
      },
    )
    .get(
      '/auth/access-token',
      describeRoute(
        describedAs(
          answerDescription('A fresh token for a valid one', 200, sessionAnswerSchema),
          bearerAuthDescription,
        ),
      ),
      async (c) => {
        const token = await authenticatedToken(c);
        const { userId, companyId, roles, passwordVersion, sessionId } = token;
        return c.json(
          await sessionAnswer(c, { userId, companyId, roles, passwordVersion, sessionId }),
          200,
        );
      },
    )
    .post(
      '/auth/user/update',
      describeRoute(
        answerDescription(
          'Save the user’s settings and shortcuts',
          200,
          z.strictObject({
            settings: z.record(z.string(), z.unknown()).meta({ description: 'As saved' }),
            shortcuts: z.array(z.string()),
            readModels: z.enum(['up-to-date', 'catching-up']).meta({
              description: '`catching-up`: the next read may not show the change yet',
            }),
          }),
        ),
      ),
      authenticate,
      idempotent,
      jsonBody(updateUserSchema),
      async (c) => {
        const { settings, shortcuts } = c.req.valid('json').user.data;
        const { userId } = c.var.caller;
        const event = settingsUpdated(userId, {
          type: 'UpdateUserSettings',
          data: { settings, shortcuts },
        });
        // A blind append: the token proved the user exists and the last save wins.
        const { position } = await appendEvents(
          c,
          streamName(streamCategories.userSettings, userId),
          [event],
          { expectedRevision: 'any' },
        );
        const readModels = await waitForReadModels(c, position);
        return c.json({ settings, shortcuts, readModels }, 200);
      },
    )
    .post(
      '/auth/logout',
      describeRoute({
        summary: 'Sign out',
        responses: { 204: { description: 'Signed out; the token no longer works' } },
      }),
      authenticate,
      idempotent,
      async (c) => {
        const { config, clock, pool } = c.var.deps;
        const { userId, companyId, tokenId, sessionId } = c.var.caller;
        const now = clock();
        const token = await verifyAccessToken(
          config,
          bearerToken(c.req.header('Authorization')),
          now,
        );
        // Every token of this sign-in was issued by now, so none outlives a fresh one.
        const expiresAt = new Date(
          Math.max(token.expiresAt.getTime(), now.getTime() + config.tokenLifetimeSeconds * 1000),
        ).toISOString();
        const { position } = await appendEvents(
          c,
          userStream(userId),
          [{ type: 'UserSignedOut', data: { userId, tokenId, sessionId, expiresAt } }],
          { expectedRevision: 'stream_exists' },
        );
        // Effective now, whatever the projection's lag; the projection's own write is a no-op.
        await recordRevokedTokens(pool, [
          { tokenId, sessionId, userId, companyId, expiresAt, position },
        ]);
        // This process refuses it from the next request on; the others once PostgreSQL notifies them.
        c.var.deps.tokenStanding?.forget(userId);
        return c.body(null, 204);
      },
    )
    .post(
      '/auth/password',
      describeRoute(answerDescription('Change the password', 200, sessionAnswerSchema)),
      authenticate,
      idempotent,
      jsonBody(changePasswordSchema),
      async (c) => {
        const { pool, clock } = c.var.deps;
        const { currentPassword, newPassword } = c.req.valid('json');
        const { userId, companyId, sessionId } = c.var.caller;
        const loaded = await loadState(c, userStream(userId), userDecider);
        const current = loaded.state;
        if (
          current.status !== 'active' ||
          !(await verifyPassword(current.passwordHash, currentPassword))
        ) {
          throw invalid('The current password is not correct', {
            currentPassword: 'The current password is not correct',
          });
        }
        const outcome = await decideAndAppend(c, {
          streamId: userStream(userId),
          decider: userDecider,
          command: {
            type: 'ChangePassword',
            data: { passwordHash: await hashPassword(newPassword), now: clock() },
          },
          // Pinned: a change that slipped in after the check above must not be overwritten.
          expectedRevision: loaded.revision ?? 'no_stream',
        });
        const passwordVersion = current.passwordVersion + 1;
        await raisePasswordVersion(pool, userId, passwordVersion);
        c.var.deps.tokenStanding?.forget(userId);
        await waitForReadModels(c, outcome.position);
        return c.json(
          await sessionAnswer(c, {
            userId,
            companyId,
            roles: current.roles,
            passwordVersion,
            sessionId,
          }),
          200,
        );
      },
    );
