import type { Hono, MiddlewareHandler } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import { handleMethodNotAllowed } from './errors';
import type { AppEnv } from './types';

/**
 * 405 with `Allow` for a known path asked with a method it does not take. Unlike hono's own
 * `methodNotAllowed`, which rewrites a 404 after the fact, this answers before routing, so a
 * feature's path-wide middleware (authentication) cannot turn the wrong method into a 401.
 */
export function rejectUnsupportedMethods(app: Hono<AppEnv>): MiddlewareHandler<AppEnv> {
  let methodsByPath: TrieRouter<readonly string[]> | undefined;
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return next();
    methodsByPath ??= indexMethods(app);
    const allowed = new Set(
      methodsByPath.match('ALL', c.req.path)[0].flatMap(([methods]) => methods),
    );
    if (allowed.size > 0 && !allowed.has(c.req.method)) {
      return handleMethodNotAllowed(c, [...allowed]);
    }
    return next();
  };
}

/** Built on the first request, when every feature is mounted. */
function indexMethods(app: Hono<AppEnv>): TrieRouter<readonly string[]> {
  const byPath = new Map<string, Set<string>>();
  for (const { method, path } of app.routes) {
    if (method === 'ALL') continue; // middleware and catch-alls say nothing about methods
    const methods = byPath.get(path) ?? new Set<string>();
    methods.add(method);
    if (method === 'GET') methods.add('HEAD');
    byPath.set(path, methods);
  }
  const router = new TrieRouter<readonly string[]>();
  for (const [path, methods] of byPath) router.add('ALL', path, [...methods]);
  return router;
}
