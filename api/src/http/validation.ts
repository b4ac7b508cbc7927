import { zValidator } from '@hono/zod-validator';
import { DomainError, invalid } from '@issuer/events';
import type { Context, Env, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { requestHasBodyStream } from './bodyLimit';
import type { FieldMessages } from './errors';
import { withRequestSchema } from './openapiSpec';

/** Turns zod issues into one summary message and per-field messages (`a.b` for nested fields). */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): {
  message: string;
  fields: FieldMessages;
} {
  const fields: FieldMessages = {};
  let rootMessage: string | undefined;
  for (const issue of issues) {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields[path ? `${path}.${key}` : key] ??= 'Unknown field';
    } else if (path) {
      fields[path] ??= issue.message;
    } else {
      rootMessage ??= issue.message;
    }
  }
  const [firstField, firstMessage] = Object.entries(fields)[0] ?? [];
  const fieldSummary =
    firstMessage === 'Unknown field' ? `Unknown field: ${firstField}` : firstMessage;
  return { message: rootMessage ?? fieldSummary ?? 'The request is not valid', fields };
}

export function validationError(error: z.core.$ZodError): DomainError {
  const { message, fields } = describeIssues(error.issues);
  return invalid(message, fields);
}

export const loneSurrogateMessage = 'Holds a broken character (a lone UTF-16 surrogate)';

const loneSurrogate = /\p{Cs}/u;

/**
 * The path of the first string or key holding a lone UTF-16 surrogate (JSON's `"\ud800"`), which
 * is not Unicode text: PostgreSQL refuses it, and so would any consumer of our events. Walks the
 * validated body, so it sees exactly what a handler would store.
 */
export function loneSurrogatePath(
  value: unknown,
  path: readonly PropertyKey[] = [],
): readonly PropertyKey[] | undefined {
  if (typeof value === 'string') return loneSurrogate.test(value) ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = [...path, Array.isArray(value) ? Number(key) : key];
    if (loneSurrogate.test(key)) return at;
    const found = loneSurrogatePath(item, at);
    if (found) return found;
  }
  return undefined;
}

function refuseLoneSurrogates(value: unknown): void {
  const path = loneSurrogatePath(value);
  if (!path) return;
  const field = path.map(String).join('.');
  throw invalid(loneSurrogateMessage, field ? { [field]: loneSurrogateMessage } : undefined);
}

const jsonMediaType = /^application\/([\w.-]+\+)?json$/i;

function hasBody(c: Context): boolean {
  return requestHasBodyStream(c) && c.req.header('Content-Length') !== '0';
}

function sentJson(c: Context): boolean {
  const mediaType = c.req.header('Content-Type')?.split(';')[0]?.trim() ?? '';
  return jsonMediaType.test(mediaType);
}

/**
 * The request's JSON body; `{}` when there is none, even under a JSON content type (a generic
 * client's `Content-Type: application/json` on a command without fields), where Hono's own
 * validator would call the empty text malformed JSON.
 */
async function readJsonBody(c: Context): Promise<unknown> {
  if (!hasBody(c)) return {};
  if (!sentJson(c)) {
    throw new DomainError(415, 'unsupported_media_type', 'Send the body as application/json');
  }
  const text = await c.req.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw invalid('Malformed JSON in request body');
  }
}

type JsonTarget<Schema extends z.ZodType> = {
  in: { json: z.input<Schema> };
  out: { json: z.output<Schema> };
};

/**
 * Validates a JSON body against a (strict) zod schema: `c.req.valid('json')` in the handler.
 * A body that is not JSON answers 415, broken JSON 400, a schema mismatch 400 with per-field
 * messages. No body at all is validated as `{}`, so a command without fields needs none.
 */
export function jsonBody<Schema extends z.ZodType>(schema: Schema) {
  const validator: MiddlewareHandler<Env, string, JsonTarget<Schema>> = async (c, next) => {
    const result = await schema.safeParseAsync(await readJsonBody(c));
    if (!result.success) throw validationError(result.error);
    refuseLoneSurrogates(result.data);
    c.req.addValidatedData('json', result.data as object);
    await next();
  };
  return withRequestSchema(validator, 'json', schema);
}

/** Validates the query string: `c.req.valid('query')`. Values arrive as strings (use z.coerce). */
export function queryParams<Schema extends z.ZodType>(schema: Schema) {
  const validator = zValidator('query', schema, (result) => {
    if (!result.success) throw validationError(result.error);
  });
  return withRequestSchema(validator, 'query', schema);
}

/** Validates path parameters (e.g. ids as UUIDs): `c.req.valid('param')`. */
export function pathParams<Schema extends z.ZodType>(schema: Schema) {
  const validator = zValidator('param', schema, (result) => {
    if (!result.success) throw validationError(result.error);
  });
  return withRequestSchema(validator, 'param', schema);
}

/**
 * A query value that carries JSON, as react-admin sends `sort=["name","ASC"]`,
 * `range=[0,24]` and `filter={}`: parsed, then checked against `schema`.
 */
export function jsonEncoded<Schema extends z.ZodType>(schema: Schema) {
  return z
    .string()
    .transform((text, context): unknown => {
      try {
        return JSON.parse(text);
      } catch {
        context.addIssue({ code: 'custom', message: 'Must be valid JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);
}
