import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createI18nProvider, loadMessages } from '../i18n/i18nProvider';
import { fieldErrors, httpClient } from './http';

/** A real server answering the API's error shape with the seed's English messages. */
describe("the API's messages in the reader's language", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const message =
        request.url === '/taken' ? 'The email is already in use' : 'Only 158000 tokens are left';
      const unknown = request.url === '/unknown';
      response.writeHead(409, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error: {
            code: 'conflict',
            message: unknown ? 'Something the portal has no words for' : message,
            fields: unknown ? undefined : { email: message },
          },
        }),
      );
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

  const failure = (path: string) => httpClient(`${base}${path}`).catch((error: unknown) => error);

  it('says a message it knows in Turkish, under its field and in the toast, numbers in Turkish', async () => {
    await loadMessages('tr');
    createI18nProvider('tr');
    const taken = await failure('/taken');
    expect(taken).toMatchObject({ message: 'Bu e-posta zaten kullanılıyor', status: 409 });
    expect(fieldErrors(taken)).toEqual({ email: 'Bu e-posta zaten kullanılıyor' });
    expect(await failure('/left')).toMatchObject({ message: 'Yalnızca 158.000 token kaldı' });
  });

  it('keeps a message it does not know, and every message in English, as the API wrote it', async () => {
    createI18nProvider('tr');
    expect(await failure('/unknown')).toMatchObject({
      message: 'Something the portal has no words for',
    });
    createI18nProvider('en');
    expect(await failure('/taken')).toMatchObject({ message: 'The email is already in use' });
  });
});
