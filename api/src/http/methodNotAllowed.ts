import type { Hono, MiddlewareHandler } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import { handleMethodNotAllowed } from './errors';
import type { AppEnv } from './types';

interface PathMethods {
  methods: readonly string[];
  /** A path without parameters or wildcards, such as `/api/customers/export.csv`. */
  fixed: boolean;
}

/**
 * 405 with `Allow` for a known path asked with a method it does not take. Unlike hono's own
 * `methodNotAllowed`, which rewrites a 404 after the fact, this answers before routing, so a
 * feature's path-wide middleware (authentication) cannot turn the wrong method into a 401.
 * A fixed path names its own resource: `DELETE /api/customers/export.csv` is a 405, though
 * `DELETE /api/customers/:id` would match it.
 */
export function rejectUnsupportedMethods(app: Hono<AppEnv>): MiddlewareHandler<AppEnv> {
  let methodsByPath: TrieRouter<PathMethods> | undefined;
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return next();
    methodsByPath ??= indexMethods(app);
    const matches = methodsByPath.match('ALL', c.req.path)[0].map(([entry]) => entry);
    const fixed = matches.filter((entry) => entry.fixed);
    const allowed = new Set((fixed.length > 0 ? fixed : matches).flatMap((entry) => entry.methods));
    if (allowed.size > 0 && !allowed.has(c.req.method)) {
      return handleMethodNotAllowed(c, [...allowed]);
    }
    return next();
  };
}

/** Built on the first request, when every feature is mounted. */
function indexMethods(app: Hono<AppEnv>): TrieRouter<PathMethods> {
  const byPath = new Map<string, Set<string>>();
  for (const { method, path } of app.routes) {
    if (method === 'ALL') continue; // middleware and catch-alls say nothing about methods
    const methods = byPath.get(path) ?? new Set<string>();
    methods.add(method);
    if (method === 'GET') methods.add('HEAD');
    byPath.set(path, methods);
  }
  const router = new TrieRouter<PathMethods>();
  for (const [path, methods] of byPath) {
    router.add('ALL', path, { methods: [...methods], fixed: !/[:*]/.test(path) });
  }
  return router;
}
