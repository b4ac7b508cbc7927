import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpError } from 'react-admin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient } from './http';

const unreachable = "The portal's server cannot be reached. Check your connection and try again.";

describe('a call the portal did not answer', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/proxy') {
        // What nginx answers while the portal behind it is down.
        response.writeHead(502, { 'content-type': 'text/html' });
        response.end('<html><body>502 Bad Gateway</body></html>');
        return;
      }
      response.writeHead(503, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { code: 'catching_up', message: 'Catching up' } }));
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

  const failure = (url: string) =>
    httpClient(url).then(
      () => undefined,
      (error: unknown) => error,
    );

  it('says the server cannot be reached when a proxy answers for it', async () => {
    const error = await failure(`${base}/proxy`);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ message: unreachable, status: 0 });
  });

  it('says so when no connection can be made, not the browser’s "Failed to fetch"', async () => {
    const closed = createServer();
    await new Promise<void>((listening) => closed.listen(0, '127.0.0.1', listening));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    expect(await failure(`http://127.0.0.1:${port}/api/customers`)).toMatchObject({
      message: unreachable,
      status: 0,
    });
  });

  it('keeps the API’s own answer when it gave one, even a 503', async () => {
    expect(await failure(`${base}/api`)).toMatchObject({ message: 'Catching up', status: 503 });
  });
});
