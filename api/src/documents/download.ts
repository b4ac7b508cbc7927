import { Readable } from 'node:stream';
import { notFound } from '@issuer/events';
import type { Context } from 'hono';
import type { DocumentVersion } from './document';
import type { DocumentStorage } from './storage';

/**
 * Streams one version's bytes with its type, length, name and hash (the ETag: the bytes never
 * change under a hash, so a client's copy is either this or not).
 */
export async function streamFile(
  c: Context,
  storage: DocumentStorage,
  version: Pick<DocumentVersion, 'fileName' | 'mediaType' | 'sha256'>,
  disposition: 'attachment' | 'inline' = 'attachment',
): Promise<Response> {
  const etag = `"${version.sha256}"`;
  const headers = {
    ETag: etag,
    'Cache-Control': 'private, no-cache',
    'X-Content-Type-Options': 'nosniff',
  };
  if (c.req.header('If-None-Match') === etag) return c.body(null, 304, headers);
  const stored = await storage.get(version.sha256);
  if (!stored) throw notFound('Document content');
  const ascii = version.fileName.replace(/[^\x20-\x7e]|[\\"]/g, '_');
  return c.body(Readable.toWeb(stored.stream) as ReadableStream, 200, {
    ...headers,
    'Content-Type': version.mediaType,
    'Content-Length': String(stored.sizeBytes),
    'Content-Disposition': `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(version.fileName)}`,
  });
}
