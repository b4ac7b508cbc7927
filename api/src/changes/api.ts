import { DomainError } from '@issuer/events';
import { type Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { errors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { authenticate, authenticatedToken } from '../auth/authenticate';
import { invalidToken } from '../auth/tokens';
import { type AppEnv, type Feature, queryParams } from '../http';
import {
  bearerAuthDescription,
  createdDescription,
  describedAs,
  describeRoute,
} from '../http/openapiSpec';

/** A ticket opens one stream within this many seconds of being issued. */
export const ticketLifetimeSeconds = 60;

const ticketAudience = (c: Context<AppEnv>) => `${c.var.deps.config.tokenAudience}:changes`;

const unavailable = () =>
  new DomainError(503, 'changes_unavailable', 'Live updates are not available on this server');

/**
 * A short-lived ticket for `GET /api/changes?ticket=…`. EventSource cannot send headers, and the
 * access token in a URL would be written to access logs and browser history for its whole life;
 * a ticket is good for a minute and for this one route only (its own audience), and being
 * signed it works on whichever API process the stream reaches.
 */
async function issueTicket(c: Context<AppEnv>) {
  const { userId, companyId } = c.var.caller;
  const now = Math.floor(c.var.deps.clock().getTime() / 1000);
  const ticket = await new SignJWT({ tid: companyId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(c.var.deps.config.tokenIssuer)
    .setAudience(ticketAudience(c))
    .setSubject(userId)
    .setIssuedAt(now)
    .setExpirationTime(now + ticketLifetimeSeconds)
    .sign(c.var.deps.config.tokenSecret);
  return { ticket, expiresAt: new Date((now + ticketLifetimeSeconds) * 1000).toISOString() };
}

async function companyOfTicket(c: Context<AppEnv>, ticket: string): Promise<string> {
  try {
    const { payload } = await jwtVerify(ticket, c.var.deps.config.tokenSecret, {
      algorithms: ['HS256'],
      issuer: c.var.deps.config.tokenIssuer,
      audience: ticketAudience(c),
      currentDate: c.var.deps.clock(),
      requiredClaims: ['sub', 'exp'],
    });
    if (typeof payload.tid !== 'string' || payload.tid === '') throw invalidToken();
    return payload.tid;
  } catch (error) {
    if (error instanceof errors.JOSEError) throw invalidToken();
    throw error;
  }
}

const streamQuery = z.strictObject({
  ticket: z.string().min(1).max(2_000).optional(),
  /** For clients that cannot send `Last-Event-ID` either. */
  lastEventId: z
    .string()
    .regex(/^\d{1,18}$/, 'A position: digits only')
    .optional(),
});

function lastEventIdOf(c: Context<AppEnv>, fromQuery: string | undefined): bigint | undefined {
  const header = c.req.header('Last-Event-ID');
  const text = header && /^\d{1,18}$/.test(header) ? header : fromQuery;
  return text === undefined ? undefined : BigInt(text);
}

/**
 * `GET /api/changes`: the caller's company's changes as Server-Sent Events, by a ticket in the
 * query (browsers) or a Bearer token (other clients). Messages name a resource and record ids.
 */
export const changeRoutes: Feature = () =>
  new Hono<AppEnv>()
    .post(
      '/changes/ticket',
      describeRoute(
        createdDescription(
          'A ticket for the change feed',
          z.strictObject({
            ticket: z.string().meta({ description: 'Send as `?ticket=` to `GET /api/changes`' }),
            expiresAt: z.string(),
          }),
        ),
      ),
      authenticate,
      async (c) => c.json(await issueTicket(c), 201),
    )
    .get(
      '/changes',
      describeRoute(
        describedAs(
          {
            summary: 'The change feed',
            responses: {
              200: {
                description:
                  'Server-Sent Events: `change` with `{"resource": "...", "ids": ["..."]}`, ' +
                  '`ready` once caught up, `reset` when the client must refetch everything; ' +
                  'a comment line as heartbeat. The `id` is the position to resume from.',
                content: { 'text/event-stream': { schema: { type: 'string' } } },
              },
            },
          },
          bearerAuthDescription,
        ),
      ),
      queryParams(streamQuery),
      async (c) => {
        const query = c.req.valid('query');
        const companyId = query.ticket
          ? await companyOfTicket(c, query.ticket)
          : (await authenticatedToken(c)).companyId;
        const feed = c.var.deps.changes;
        if (!feed) throw unavailable();
        const subscription = await feed.subscribe(companyId, lastEventIdOf(c, query.lastEventId));
        c.header('Cache-Control', 'no-store');
        c.header('X-Accel-Buffering', 'no');
        return streamSSE(c, async (stream) => {
          stream.onAbort(() => subscription.close());
          try {
            for (;;) {
              const message = await subscription.next();
              if (message === undefined || stream.aborted) break;
              if (message === 'heartbeat') await stream.write(': heartbeat\n\n');
              else await stream.writeSSE(message);
            }
          } finally {
            subscription.close();
          }
        });
      },
    );
