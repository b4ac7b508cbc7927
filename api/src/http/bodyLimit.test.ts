import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { DomainError } from '@issuer/events';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { limitBody } from './bodyLimit';
import type { AppEnv } from './types';
import { jsonBody } from './validation';

/** The fast path runs only under @hono/node-server, so these go over real HTTP. */
describe('limitBody under @hono/node-server', () => {
  let server: ReturnType<typeof serve>;
  let url = '';
  beforeAll(async () => {
    const app = new Hono<AppEnv>();
    app.use(limitBody(16, (c) => c.json({ error: 'too large' }, 413)));
    app.post('/echo', async (c) => c.json({ text: await c.req.text(), json: await c.req.json() }));
    app.post('/ignore', (c) => c.json({ ok: true }));
    app.onError((error, c) => c.json({}, error instanceof DomainError ? error.status : 500));
    app.post('/optional', jsonBody(z.strictObject({ card: z.string().optional() })), (c) =>
      c.json(c.req.valid('json')),
    );
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads a body within the limit (a leading BOM dropped, as Request.text does)', async () => {
    const res = await fetch(`${url}/echo`, { method: 'POST', body: '\uFEFF{"a":"é"}' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ text: '{"a":"é"}', json: { a: 'é' } });
  });

  it('refuses a declared Content-Length over the limit', async () => {
    const res = await fetch(`${url}/echo`, { method: 'POST', body: '{"a":"0123456789abcdef"}' });
    expect(res.status).toBe(413);
  });

  it('refuses a streamed body once it passes the limit', async () => {
    const body = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode('0123456789'));
        controller.close();
      },
    });
    const res = await fetch(`${url}/echo`, { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
  });

  it('answers a route that never reads the body', async () => {
    const res = await fetch(`${url}/ignore`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(200);
  });

  it('takes a bare POST (no Content-Length, no Transfer-Encoding, as `curl -X POST` sends) as no body', async () => {
    const { request } = await import('node:http');
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${url}/optional`, { method: 'POST' }, (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer).toEqual({ status: 200, body: '{}' });
  });

  it('still refuses a body that is not JSON', async () => {
    const res = await fetch(`${url}/optional`, { method: 'POST', body: 'card=1' });
    expect(res.status).toBe(415);
  });
});
