import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http';

export interface UiOptions {
  /** The built admin UI (`admin-ui/dist`). */
  distDir: string;
  /** Shown on the login page: who to write to about a forgotten password. */
  supportEmail: string;
}

/** Vite names every file under `assets/` by its content hash: it can be cached for good. */
const hashedAssetCache = 'public, max-age=31536000, immutable';
const alwaysRevalidate = 'no-cache';

export function hasBuiltUi(distDir: string): boolean {
  return existsSync(join(distDir, 'index.html'));
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * index.html with the server's settings filled in (the UI reads them from meta tags), read again
 * whenever the file changes: `npm run build:ui` while the server runs replaces the hashed scripts
 * it names, and a page kept from before would ask for files that are gone.
 */
function indexHtml({ distDir, supportEmail }: UiOptions): () => string {
  const path = join(distDir, 'index.html');
  let read = { version: '', html: '' };
  return () => {
    const file = statSync(path, { throwIfNoEntry: false });
    // A build removes the old file and writes a new one: a new inode even within the same tick.
    const version = file ? `${file.ino}:${file.mtimeMs}` : read.version;
    if (version === read.version) return read.html;
    const html = readFileSync(path, 'utf8').replaceAll('%SUPPORT_EMAIL%', escapeHtml(supportEmail));
    read = { version, html };
    return html;
  };
}

const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');
const looksLikeFile = (path: string) => /\/[^/]+\.[a-z0-9]+$/i.test(path);

/**
 * Serves the admin UI for every GET outside `/api`: a file of the build when one matches,
 * otherwise index.html, so the UI's own router answers `/customers/all`, `/login`, ... A missing
 * file (a path with an extension) stays a 404. A middleware, not a `GET *` route, so the 405
 * check and the API's 404s are unchanged.
 */
export function serveUi(options: UiOptions): MiddlewareHandler<AppEnv> {
  const html = indexHtml(options);
  const files = serveStatic<AppEnv>({
    root: relative(process.cwd(), options.distDir) || '.',
    precompressed: true,
  });
  return async (c, next) => {
    const method = c.req.method;
    if ((method !== 'GET' && method !== 'HEAD') || isApiPath(c.req.path)) return next();
    if (c.req.path !== '/' && c.req.path !== '/index.html' && looksLikeFile(c.req.path)) {
      const found = await files(c, next);
      // Without a file, serveStatic hands over to the 404 handler and answers no Response.
      if (!(found instanceof Response)) return;
      found.headers.set(
        'Cache-Control',
        c.req.path.startsWith('/assets/') ? hashedAssetCache : alwaysRevalidate,
      );
      return found;
    }
    c.header('Cache-Control', alwaysRevalidate);
    return c.html(html());
  };
}
