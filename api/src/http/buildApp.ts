import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { requestId } from 'hono/request-id';
import { limitBody } from './bodyLimit';
import { errorHandler, errorResponse, handleNotFound } from './errors';
import { rejectUnsupportedMethods } from './methodNotAllowed';
import { requestLogging } from './requestLogging';
import type { AppDependencies, AppEnv, Feature } from './types';

export const maxBodyBytes = 100 * 1024;
/** For the few routes named in `largeBodyPaths` (bulk adds, CSV uploads). */
export const maxUploadBytes = 5 * 1024 * 1024;

export interface BuildOptions {
  /** Exact paths (e.g. `/api/customers/import`) that accept bodies up to `maxUploadBytes`. */
  largeBodyPaths?: readonly string[];
  /**
   * Paths whose routes read the body as a stream and bound it themselves (document uploads of
   * 20 MB): the body limit leaves them alone, as it would otherwise hold the whole body.
   */
  streamedBodyPaths?: readonly RegExp[];
}

/**
 * The HTTP foundation around the features: request id, one log line per request, CORS, body
 * limit, 405 for a known path with a wrong method, and one error shape for every failure.
 * Each feature is mounted under `/api`.
 */
export function buildApp(
  deps: AppDependencies,
  features: readonly Feature[],
  options: BuildOptions = {},
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestId({ headerName: 'X-Request-Id', limitLength: 100 }));
  app.use(requestLogging(deps.logger));
  const corsHeaders = cors({
    origin: deps.config.corsOrigins ? [...deps.config.corsOrigins] : '*',
    allowHeaders: ['Authorization', 'Content-Type', 'If-Match', 'Idempotency-Key', 'X-Request-Id'],
    exposeHeaders: ['Content-Range', 'ETag', 'X-Read-Models', 'X-Request-Id', 'X-Total-Net-Cents'],
    maxAge: 600,
  });
  // Only browsers send Origin. hono's cors builds a placeholder response before routing (and the
  // handler's response is then copied over it), a cost other callers need not pay.
  app.use((c, next) => (c.req.header('Origin') === undefined ? next() : corsHeaders(c, next)));
  app.use(rejectUnsupportedMethods(app));
  const smallBodies = limitBody(maxBodyBytes, (c) =>
    errorResponse(c, 413, 'payload_too_large', 'The request body is larger than 100 KB'),
  );
  const largeBodies = limitBody(maxUploadBytes, (c) =>
    errorResponse(c, 413, 'payload_too_large', 'The request body is larger than 5 MB'),
  );
  const largeBodyPaths = new Set(options.largeBodyPaths);
  const streamedBodyPaths = options.streamedBodyPaths ?? [];
  app.use((c, next) => {
    if (streamedBodyPaths.some((path) => path.test(c.req.path))) return next();
    return (largeBodyPaths.has(c.req.path) ? largeBodies : smallBodies)(c, next);
  });
  app.use(async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  for (const feature of features) app.route('/api', feature(deps));
  app.onError(errorHandler(deps.logger));
  app.notFound(handleNotFound);
  return app;
}
