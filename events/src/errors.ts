/**
 * Broken business rules and bad requests throw one of these; the API's single error mapper turns
 * them into `{ error: { code, message, fields? } }` with the status they carry.
 */
export class DomainError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 410 | 412 | 413 | 415 | 422 | 429 | 503,
    readonly code: string,
    message: string,
    /** Per-field messages, shown under the matching form field (seed section 5). */
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: string) => new DomainError(404, 'not_found', `${what} not found`);
export const conflict = (message: string, fields?: Record<string, string>) =>
  new DomainError(409, 'conflict', message, fields);
export const invalid = (message: string, fields?: Record<string, string>) =>
  new DomainError(400, 'invalid_request', message, fields);
export const forbidden = (message = 'You do not have permission to do this') =>
  new DomainError(403, 'forbidden', message);
