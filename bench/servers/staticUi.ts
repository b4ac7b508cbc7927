import { relative } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { serveForBench } from './serve';

/**
 * Baseline for the UI bench: the bare react-admin build in UI_DIR, served the way the API serves
 * the admin UI (files by name, precompressed `.gz` when present, index.html for every other path),
 * plus an empty `GET /api/companies` for its one list.
 */
const root = relative(process.cwd(), process.env.UI_DIR ?? '') || '.';
const app = new Hono();
app.get('/api/companies', (c) => {
  c.header('Content-Range', 'companies */0');
  return c.json([]);
});
app.get('/assets/*', serveStatic({ root, precompressed: true }));
app.get('*', serveStatic({ root, path: 'index.html' }));
serveForBench(app);
