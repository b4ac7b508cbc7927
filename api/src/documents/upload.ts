import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { type DocumentMediaType, DomainError, documentMediaTypes, invalid } from '@issuer/events';
import busboy from 'busboy';
import { fileTypeFromBuffer } from 'file-type';
import type { Context } from 'hono';
import type { AppEnv } from '../http';
import { nodeIncoming } from '../http/bodyLimit';
import type { DocumentFile } from './document';
import type { DocumentStorage } from './storage';

/** The largest document accepted (20 MB). */
export const maxDocumentBytes = 20 * 1024 * 1024;
/** Room for the multipart framing and the text fields around the file. */
const multipartOverheadBytes = 64 * 1024;
/** file-type decides from at most this many first bytes. */
const sniffBytes = 4100;

export const tooLarge = () =>
  new DomainError(413, 'payload_too_large', 'A document may be at most 20 MB', {
    file: 'At most 20 MB',
  });
const unsupportedType = () =>
  new DomainError(415, 'unsupported_media_type', 'Upload a PDF, PNG or JPEG file', {
    file: 'Upload a PDF, PNG or JPEG file',
  });

export interface Upload {
  file: DocumentFile;
  fields: Record<string, string>;
}

/**
 * Streams a `multipart/form-data` request's one `file` part into the storage, hashing it on the
 * way, and answers the stored file with its text fields. The type is decided from the first bytes
 * (file-type), never from the name or the client's content type. The whole body is read even
 * when refused, so the client reads the answer instead of a reset connection.
 */
export async function receiveUpload(
  c: Context<AppEnv>,
  storage: DocumentStorage,
  checkFields: (fields: Record<string, string>) => void,
): Promise<Upload> {
  const contentType = c.req.header('Content-Type') ?? '';
  if (!contentType.toLowerCase().startsWith('multipart/form-data')) {
    throw invalid('Send the file as multipart/form-data', { file: 'A file is required' });
  }
  const declared = Number(c.req.header('Content-Length') ?? 0);
  if (declared > maxDocumentBytes + multipartOverheadBytes) throw tooLarge();
  const parser = multipartParser(contentType);
  const source = requestStream(c);
  const fields: Record<string, string> = {};
  let stored: Promise<DocumentFile> | undefined;
  parser.on('field', (name, value) => {
    fields[name] = value;
  });
  parser.on('file', (name, stream, info) => {
    if (name !== 'file' || stored) {
      stream.resume();
      return;
    }
    // The fields sent before the file (as browsers send a form) are checked before it is stored.
    stored = Promise.resolve()
      .then(() => checkFields(fields))
      .then(() => storeFile(stream, info.filename, storage));
    // Whatever happens to the file, the rest of the body is read.
    stored.catch(() => stream.resume());
  });
  await new Promise<void>((resolve, reject) => {
    parser.on('close', resolve);
    parser.on('error', (error: Error) =>
      reject(invalid(`The multipart body is malformed: ${error.message}`, { file: 'Malformed' })),
    );
    source.on('error', reject);
    source.pipe(parser);
  });
  checkFields(fields);
  if (!stored) throw invalid('A file is required', { file: 'A file is required' });
  return { file: await stored, fields };
}

function multipartParser(contentType: string) {
  try {
    return busboy({
      headers: { 'content-type': contentType },
      limits: { files: 1, fields: 10, fieldSize: 2000, fileSize: maxDocumentBytes + 1 },
    });
  } catch (error) {
    // A multipart type without a boundary, say.
    throw invalid(`The multipart body is malformed: ${(error as Error).message}`, {
      file: 'Malformed',
    });
  }
}

function requestStream(c: Context<AppEnv>): Readable {
  const incoming = nodeIncoming(c);
  if (incoming) return incoming;
  const body = c.req.raw.body;
  if (!body) throw invalid('A file is required', { file: 'A file is required' });
  return Readable.fromWeb(body as unknown as WebReadableStream<Uint8Array>);
}

async function storeFile(
  stream: Readable,
  fileName: string | undefined,
  storage: DocumentStorage,
): Promise<DocumentFile> {
  let mediaType: DocumentMediaType | undefined;
  // Not destroyed when the storage stops early: the rest is drained so the answer gets through.
  const pieces = stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>;
  const sniffed = sniffing(pieces, (type) => {
    mediaType = type;
  });
  const stored = await storage.put(sniffed, { maxBytes: maxDocumentBytes });
  if ('refused' in stored) throw tooLarge();
  if (!mediaType) throw unsupportedType();
  return {
    fileName: cleanFileName(fileName),
    mediaType,
    sizeBytes: stored.sizeBytes,
    sha256: stored.sha256,
  };
}

/**
 * The stream as it comes, once its first bytes are known to be a PDF, PNG or JPEG; throws 415
 * otherwise (an HTML page named `.pdf` among them), so the storage keeps nothing.
 */
async function* sniffing(
  stream: AsyncIterable<Buffer>,
  found: (type: DocumentMediaType) => void,
): AsyncGenerator<Buffer> {
  const held: Buffer[] = [];
  let heldBytes = 0;
  let decided = false;
  const decide = async () => {
    const type = await fileTypeFromBuffer(Buffer.concat(held, heldBytes));
    const mime = type?.mime as DocumentMediaType | undefined;
    if (!mime || !documentMediaTypes.includes(mime)) throw unsupportedType();
    found(mime);
    decided = true;
  };
  for await (const piece of stream) {
    if (decided) {
      yield piece;
      continue;
    }
    held.push(piece);
    heldBytes += piece.length;
    if (heldBytes < sniffBytes) continue;
    await decide();
    yield* held;
  }
  if (!decided) {
    if (heldBytes === 0) throw invalid('The file is empty', { file: 'The file is empty' });
    await decide();
    yield* held;
  }
}

/** The name as the browser sent it, without any folder, control characters or quotes. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(/\p{Cc}|"/gu, '')
    .trim()
    .slice(0, 200);
  return clean || 'document';
}
