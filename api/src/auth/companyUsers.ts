import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import { type AppEnv, type Feature, idempotent, jsonBody, waitForReadModels } from '../http';
import { createdDescription, describeRoute } from '../http/openapiSpec';
import { openAccount, requestStreamCommands } from './accounts';
import { authenticate, requireRole } from './authenticate';
import { emailField, newPasswordField } from './credentials';
import { hashPassword } from './passwords';

/**
 * A company admin adds a user to their own company: a `compliance` reviewer (reads customers,
 * histories and as-of views, changes nothing) or another `admin`. The new user signs in with
 * POST /api/auth.
 */
const companyUserSchema = z.strictObject({
  email: emailField,
  password: newPasswordField,
  role: z.enum(['compliance', 'admin'], { error: 'Role is compliance or admin' }),
  displayName: z.string().trim().min(1).max(100).optional(),
});

export const companyUserRoutes: Feature = () =>
  new Hono<AppEnv>().post(
    '/company/users',
    describeRoute(
      createdDescription(
        'Add a user to the caller’s company',
        z.strictObject({
          id: z.string(),
          email: z.string(),
          roles: z.array(z.string()),
          readModels: z.enum(['up-to-date', 'catching-up']),
        }),
      ),
    ),
    authenticate,
    requireRole('admin'),
    idempotent,
    jsonBody(companyUserSchema),
    async (c) => {
      const { email, password, role, displayName } = c.req.valid('json');
      const { companyId, userId: actorId } = c.var.caller;
      const userId = randomUUID();
      const position = await openAccount(requestStreamCommands(c, { companyId, userId: actorId }), {
        userId,
        companyId,
        email,
        displayName: displayName ?? email,
        passwordHash: await hashPassword(password),
        roles: [role],
        now: c.var.deps.clock(),
      });
      const readModels = await waitForReadModels(c, position);
      return c.json({ id: userId, email, roles: [role], readModels }, 201);
    },
  );
