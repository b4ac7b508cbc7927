import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Pool } from 'pg';

/** What the storage knows of one stored file, addressed by its SHA-256 (hex). */
export interface StoredFile {
  sha256: string;
  sizeBytes: number;
}

/**
 * The port documents keep their bytes behind. Files are content-addressed: storing the same bytes
 * twice keeps one copy. `put` streams: it never holds the whole file. Another adapter (an
 * S3-compatible bucket) plugs in here for scale.
 */
export interface DocumentStorage {
  /**
   * Stores the stream and answers its hash and size; `too_large` (nothing kept) when it passes
   * `maxBytes`. When the source throws, nothing is kept and the error goes on.
   */
  put(
    source: AsyncIterable<Buffer>,
    options: { maxBytes: number },
  ): Promise<StoredFile | { refused: 'too_large' }>;
  /** The bytes of a stored file as a stream; undefined when no such file is stored. */
  get(sha256: string): Promise<{ sizeBytes: number; stream: Readable } | undefined>;
}

/** How many bytes one row of `document_chunks` holds. */
const chunkBytes = 256 * 1024;
/** How many chunks one read of `get` fetches. */
const chunksPerRead = 2;

/**
 * The default adapter: files in PostgreSQL, in 256 KB rows of `document_chunks`. An upload is
 * written under a temporary key while it is hashed, then renamed to its hash in one transaction,
 * or dropped when those bytes are stored already. Not part of any read model: a rebuild keeps it.
 */
export const documentStorageMigration = `
CREATE TABLE IF NOT EXISTS document_blobs (
  blob_key text PRIMARY KEY,
  size_bytes bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS document_chunks (
  blob_key text NOT NULL,
  seq int NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (blob_key, seq)
);
`;

export async function migrateDocumentStorage(pool: Pool): Promise<void> {
  await pool.query(documentStorageMigration);
}

export function postgresDocumentStorage(pool: Pool): DocumentStorage {
  return {
    async put(source, { maxBytes }) {
      const staging = `upload:${randomUUID()}`;
      const hash = createHash('sha256');
      let size = 0;
      let seq = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async (all: boolean) => {
        while (pendingBytes >= chunkBytes || (all && pendingBytes > 0)) {
          const joined = Buffer.concat(pending, pendingBytes);
          const chunk = joined.subarray(0, chunkBytes);
          const rest = joined.subarray(chunk.length);
          await pool.query(
            'INSERT INTO document_chunks (blob_key, seq, data) VALUES ($1, $2, $3)',
            [staging, seq++, chunk],
          );
          pending = rest.length > 0 ? [Buffer.from(rest)] : [];
          pendingBytes = rest.length;
        }
      };
      const discard = () =>
        pool.query('DELETE FROM document_chunks WHERE blob_key = $1', [staging]).then(() => {});
      try {
        for await (const piece of source) {
          size += piece.length;
          if (size > maxBytes) {
            await discard();
            return { refused: 'too_large' };
          }
          hash.update(piece);
          pending.push(piece);
          pendingBytes += piece.length;
          await flush(false);
        }
        await flush(true);
      } catch (error) {
        await discard().catch(() => undefined);
        throw error;
      }
      const sha256 = hash.digest('hex');
      await keep(pool, staging, sha256, size);
      return { sha256, sizeBytes: size };
    },
    async get(sha256) {
      const { rows } = await pool.query<{ size_bytes: string }>(
        'SELECT size_bytes FROM document_blobs WHERE blob_key = $1',
        [sha256],
      );
      const found = rows[0];
      if (!found) return undefined;
      // One chunk ahead at most: a slow reader must not make the stream buffer megabytes.
      const stream = Readable.from(chunksOf(pool, sha256), { highWaterMark: 1 });
      return { sizeBytes: Number(found.size_bytes), stream };
    },
  };
}

/** Renames the staged chunks to their hash, or drops them when the hash is stored already. */
async function keep(pool: Pool, staging: string, sha256: string, size: number) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const inserted = await client.query(
      `INSERT INTO document_blobs (blob_key, size_bytes) VALUES ($1, $2)
       ON CONFLICT (blob_key) DO NOTHING`,
      [sha256, size],
    );
    if (inserted.rowCount === 1) {
      await client.query('UPDATE document_chunks SET blob_key = $1 WHERE blob_key = $2', [
        sha256,
        staging,
      ]);
    } else {
      await client.query('DELETE FROM document_chunks WHERE blob_key = $1', [staging]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The stored chunks in order, a few rows per query, so memory holds about 0.5 MB at a time. */
async function* chunksOf(pool: Pool, key: string): AsyncGenerator<Buffer> {
  for (let next = 0; ; next += chunksPerRead) {
    const { rows } = await pool.query<{ data: Buffer }>(
      'SELECT data FROM document_chunks WHERE blob_key = $1 AND seq >= $2 ORDER BY seq LIMIT $3',
      [key, next, chunksPerRead],
    );
    for (const row of rows) yield row.data;
    if (rows.length < chunksPerRead) return;
  }
}
