import { DomainError } from '@issuer/events';
import type { Context } from 'hono';

/** The ETag of a stream at `revision`: `"<revision>"`, the value clients echo in If-Match. */
export function formatETag(revision: bigint): string {
  return `"${revision}"`;
}

export function setETag(c: Context, revision: bigint): void {
  c.header('ETag', formatETag(revision));
}

const revisionETag = /^(?:W\/)?"(\d{1,19})"$/;

/**
 * The stream revision the client saw, from `If-Match: "<revision>"` (weak `W/"…"` accepted, as
 * proxies may weaken ETags); undefined when the header is absent.
 */
export function ifMatchRevision(c: Context): bigint | undefined {
  const header = c.req.header('If-Match');
  if (header === undefined) return undefined;
  const match = revisionETag.exec(header.trim());
  if (!match?.[1]) {
    throw new DomainError(400, 'invalid_request', 'If-Match must be one ETag such as "3"');
  }
  return BigInt(match[1]);
}

export function preconditionFailed(current: bigint | undefined): DomainError {
  const seen = current === undefined ? 'it does not exist' : `it is now at ${formatETag(current)}`;
  return new DomainError(
    412,
    'precondition_failed',
    `This was changed since you loaded it (${seen}); reload and try again`,
  );
}
