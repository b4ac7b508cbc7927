import { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from './types';

/** Methods whose body @hono/node-server never exposes (`raw.body` is null for them). */
const bodylessMethods = new Set(['GET', 'HEAD', 'TRACE']);

/** The Node request behind `c` when served by @hono/node-server; undefined under `app.request`. */
export function nodeIncoming(c: Context): IncomingMessage | undefined {
  const incoming: unknown = (c.env as { incoming?: unknown } | undefined)?.incoming;
  return incoming instanceof IncomingMessage ? incoming : undefined;
}

/**
 * Whether the request carries a body stream, without building the WHATWG Request to ask. On the
 * wire a request has a body only with Content-Length or Transfer-Encoding (RFC 9112 §6.3): a bare
 * `curl -X POST` sends neither.
 */
export function requestHasBodyStream(c: Context): boolean {
  const incoming = nodeIncoming(c);
  if (incoming) {
    if (bodylessMethods.has(c.req.method)) return false;
    return (
      incoming.headers['content-length'] !== undefined ||
      incoming.headers['transfer-encoding'] !== undefined
    );
  }
  return c.req.raw.body !== null;
}

/**
 * hono's `bodyLimit`, with a fast path under @hono/node-server: the body is read straight from
 * the Node request into hono's body cache (`c.req.text()`/`json()` read it from there), so no
 * WHATWG Request, AbortSignal and web stream is built for every request, a measurable share of a
 * command's CPU. Same limits and answers: a declared Content-Length over the limit is refused
 * unread, a streamed body as soon as it passes the limit.
 */
export function limitBody(
  maxSize: number,
  onError: (c: Context<AppEnv>) => Response | Promise<Response>,
): MiddlewareHandler<AppEnv> {
  const portable = bodyLimit({ maxSize, onError });
  return async (c, next) => {
    const incoming = nodeIncoming(c);
    if (!incoming) return portable(c, next);
    if (bodylessMethods.has(c.req.method)) return next();
    const declared = incoming.headers['content-length'];
    if (declared !== undefined && incoming.headers['transfer-encoding'] === undefined) {
      if (Number.parseInt(declared || '0', 10) > maxSize) return onError(c);
    }
    const bytes = await readBody(incoming, maxSize);
    if (bytes === undefined) return onError(c);
    // TextDecoder decodes as Request.text() does (UTF-8, a leading BOM dropped).
    (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(
      new TextDecoder().decode(bytes),
    );
    return next();
  };
}

/** The whole body, or undefined as soon as it passes `maxSize` (the rest is left unread). */
function readBody(incoming: IncomingMessage, maxSize: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxSize) {
        cleanup();
        incoming.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
  });
}
