import { DomainError, WrongExpectedRevisionError } from '@issuer/events';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from 'pino';
import type { AppEnv } from './types';

export type FieldMessages = Record<string, string>;

/**
 * The one error shape. `fields` holds per-field messages; they are also spread into `error`
 * because the seed's client reads `error.email`, `error.password`, ... directly.
 */
export interface ErrorBody {
  error: { code: string; message: string; fields?: FieldMessages; [field: string]: unknown };
}

export function errorBody(code: string, message: string, fields?: FieldMessages): ErrorBody {
  if (!fields || Object.keys(fields).length === 0) return { error: { code, message } };
  return { error: { ...fields, code, message, fields } };
}

export function errorResponse(
  c: Context,
  status: ContentfulStatusCode,
  code: string,
  message: string,
  fields?: FieldMessages,
): Response {
  return c.json(errorBody(code, message, fields), status);
}

const internalErrorMessage = 'Something went wrong on our side';
const serviceUnavailableMessage = 'The service is briefly unavailable; please try again';

const codeByStatus: Partial<Record<number, string>> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  411: 'length_required',
  412: 'precondition_failed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'too_many_requests',
};

/** PostgreSQL SQLSTATE class 22 ("data exception") means a value the request carried was unusable. */
function isPostgresDataException(error: Error): boolean {
  const code = (error as Error & { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('22') && code.length === 5;
}

/**
 * The database could not be reached or went away mid-request (a restart, a failover): the
 * request may be retried, so 503 rather than 500. Socket errors carry Node's code; PostgreSQL's
 * own refusals are SQLSTATE class 08 (connection exception) and 57P01–57P03 (shutting down,
 * starting up); pg's lost-connection and connect-timeout errors carry no code, only their message.
 */
const unreachableSocketCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
const unreachableMessages = [
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
];

export function isDatabaseUnavailable(error: Error): boolean {
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === 'string') {
    return unreachableSocketCodes.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code);
  }
  return unreachableMessages.some((message) => error.message.includes(message));
}

/** `app.onError`: every failure becomes the one error shape; stacks are logged, never sent. */
export const errorHandler = (logger: Logger) => (error: Error, c: Context<AppEnv>) =>
  mapError(error, c, logger);

function mapError(error: Error, c: Context<AppEnv>, logger: Logger): Response {
  if (error instanceof DomainError) {
    return errorResponse(c, error.status, error.code, error.message, error.fields);
  }
  if (error instanceof WrongExpectedRevisionError) {
    return errorResponse(
      c,
      409,
      'concurrency_conflict',
      'Someone else changed this at the same time; please try again',
    );
  }
  if (error instanceof HTTPException && error.status < 500) {
    const status = error.status as ContentfulStatusCode;
    const code = codeByStatus[status] ?? 'invalid_request';
    return errorResponse(c, status, code, error.message || code.replaceAll('_', ' '));
  }
  // A safety net, not the plan: validators should have refused such a value before SQL saw it.
  if (isPostgresDataException(error)) {
    logger.warn({ err: error, requestId: c.var.requestId }, 'unvalidated input');
    return errorResponse(c, 400, 'invalid_request', 'A value in the request is not valid');
  }
  if (isDatabaseUnavailable(error)) {
    logger.warn({ err: error, requestId: c.var.requestId }, 'database unavailable');
    c.header('Retry-After', '5');
    return errorResponse(c, 503, 'service_unavailable', serviceUnavailableMessage);
  }
  logger.error({ err: error, requestId: c.var.requestId }, 'unhandled error');
  return errorResponse(c, 500, 'internal_error', internalErrorMessage);
}

/** `app.notFound`: unknown routes answer in the same shape. */
export function handleNotFound(c: Context<AppEnv>): Response {
  return errorResponse(c, 404, 'not_found', 'There is nothing at this address');
}

export function handleMethodNotAllowed(c: Context<AppEnv>, allowed: string[]): Response {
  c.header('Allow', allowed.join(', '));
  return errorResponse(
    c,
    405,
    'method_not_allowed',
    `${c.req.method} is not allowed here; use ${allowed.join(', ')}`,
  );
}
