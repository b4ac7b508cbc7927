import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { type AccountsHarness, startAccountsHarness } from '../auth/testing/accountsHarness';
import type { AppEnv } from '../http';

let h: AccountsHarness;
let app: Hono<AppEnv>;
let distDir: string;
const script = 'console.log("portal")';
const page = (entry: string) =>
  `<html><head><meta name="support-email" content="%SUPPORT_EMAIL%"></head><body><div id="root"></div><script src="/assets/${entry}"></script></body></html>`;

beforeAll(async () => {
  h = await startAccountsHarness();
  distDir = mkdtempSync(join(tmpdir(), 'admin-ui-dist-'));
  mkdirSync(join(distDir, 'assets'));
  writeFileSync(join(distDir, 'index.html'), page('index-abc123.js'));
  writeFileSync(join(distDir, 'assets', 'index-abc123.js'), script);
  writeFileSync(join(distDir, 'assets', 'index-abc123.js.gz'), gzipSync(script));
  writeFileSync(join(distDir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  app = createApp(h.deps, { distDir, supportEmail: 'help+<ops>@maple.test' });
});
afterAll(async () => {
  rmSync(distDir, { recursive: true, force: true });
  await h.close();
});

describe('a browser opening the portal when the UI is built', () => {
  it('gets the UI at / instead of the JSON welcome, never cached, with the support address', async () => {
    const res = await app.request('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    expect(html).toContain('<div id="root">');
    expect(html).toContain('content="help+&#60;ops&#62;@maple.test"');
  });

  it.each(['/login', '/customers/all', '/fundingrounds/round/7/apple', '/no/such/page'])(
    'gets index.html for the UI route %s, so the UI router answers it',
    async (path) => {
      const res = await app.request(path);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
    },
  );

  it('gets hashed assets cached for a year, compressed when the browser accepts it', async () => {
    const plain = await app.request('/assets/index-abc123.js');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await plain.text()).toBe(script);
    const gzipped = await app.request('/assets/index-abc123.js', {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect((await app.request('/logo.svg')).headers.get('cache-control')).toBe('no-cache');
  });

  it('gets the new page after the UI is built again while the server runs', async () => {
    expect(await (await app.request('/login')).text()).toContain('index-abc123.js');
    writeFileSync(join(distDir, 'assets', 'index-def456.js'), script);
    writeFileSync(join(distDir, 'index.html'), page('index-def456.js'));
    const html = await (await app.request('/login')).text();
    expect(html).toContain('/assets/index-def456.js');
    expect(html).toContain('content="help+&#60;ops&#62;@maple.test"');
    writeFileSync(join(distDir, 'index.html'), page('index-abc123.js'));
  });

  it('gets a 404 for a missing file instead of the page', async () => {
    expect((await app.request('/assets/gone-000.js')).status).toBe(404);
  });

  it('leaves the API alone: its 404s, 405s and routes keep their JSON', async () => {
    const missing = await app.request('/api/nowhere');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found');
    expect((await app.request('/api/health')).status).toBe(200);
    expect((await app.request('/api/auth', { method: 'GET' })).status).toBe(405);
    expect((await app.request('/login', { method: 'POST' })).status).toBe(404);
  });
});
