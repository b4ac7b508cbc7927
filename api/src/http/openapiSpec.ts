import type { MiddlewareHandler } from 'hono';
import { type DescribeRouteOptions, describeRoute, resolver, uniqueSymbol } from 'hono-openapi';
import type { OpenAPIV3_1 } from 'openapi-types';
import { z } from 'zod';

/**
 * Route descriptions for the OpenAPI document (`GET /api/openapi.json`). hono-openapi reads them
 * from the middleware the routes already run: the validators (their zod schemas), `authenticate`,
 * `idempotent`, and a `describeRoute(...)` where a route answers more than the defaults say.
 */
export { describeRoute };
export type RouteDescription = DescribeRouteOptions;

type Target = 'json' | 'query' | 'param';

/** Marks a validator middleware with the zod schema it checks, as hono-openapi's own validator does. */
export function withRequestSchema<Middleware extends MiddlewareHandler>(
  middleware: Middleware,
  target: Target,
  schema: z.ZodType,
): Middleware {
  return Object.assign(middleware, { [uniqueSymbol]: { target, ...resolver(schema) } });
}

/** Marks a middleware (authentication, idempotency) with what it adds to every route it guards. */
export function withRouteDescription<Middleware extends MiddlewareHandler>(
  middleware: Middleware,
  spec: RouteDescription,
): Middleware {
  return Object.assign(middleware, { [uniqueSymbol]: { spec } });
}

export const errorResponseRef = (name: string): OpenAPIV3_1.ReferenceObject => ({
  $ref: `#/components/responses/${name}`,
});

/** A JSON Schema, or a zod schema converted as the route's answer (its output side). */
export type AnswerSchema = OpenAPIV3_1.SchemaObject | z.ZodType;

const jsonContent = (schema: AnswerSchema) => ({
  'application/json': {
    schema:
      '~standard' in schema
        ? (resolver(schema, { options: { io: 'output' } }) as unknown as OpenAPIV3_1.SchemaObject)
        : schema,
  },
});

/** A JSON answer with `status`, described by `schema`. */
export function answerDescription(
  summary: string,
  status: number,
  schema: AnswerSchema,
  description = 'Success',
): RouteDescription {
  return { summary, responses: { [status]: { description, content: jsonContent(schema) } } };
}

/** Several descriptions as one: the first summary wins, responses and parameters add up. */
export function describedAs(...parts: RouteDescription[]): RouteDescription {
  return {
    ...Object.assign({}, ...parts),
    summary: parts.find((part) => part.summary)?.summary,
    parameters: parts.flatMap((part) => part.parameters ?? []),
    responses: Object.assign({}, ...parts.map((part) => part.responses)),
  };
}

/** The bearer token: 401 without a valid one, 403 without the role or a verified company. */
export const bearerAuthDescription: RouteDescription = {
  security: [{ bearer: [] }],
  responses: { 401: errorResponseRef('Unauthorized'), 403: errorResponseRef('Forbidden') },
};

export const idempotencyDescription: RouteDescription = {
  parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
  responses: { 409: errorResponseRef('Conflict'), 422: errorResponseRef('Unprocessable') },
};

/** A react-admin list: an array of `resource` rows, the window and total in `Content-Range`. */
export function listDescription(summary: string, row: AnswerSchema): RouteDescription {
  return {
    summary,
    responses: {
      200: {
        description: 'One page of rows; `Content-Range` carries the window and the total',
        headers: { 'Content-Range': { $ref: '#/components/headers/ContentRange' } },
        content: jsonContent('~standard' in row ? z.array(row) : { type: 'array', items: row }),
      },
    },
  };
}

/** A route that answers 201 with the created resource. */
export function createdDescription(summary: string, schema: AnswerSchema): RouteDescription {
  return answerDescription(summary, 201, schema, 'Created; the new resource');
}

/** A sandbox route that answers 202: the simulator acts on it in the background. */
export function acceptedDescription(summary: string, schema: AnswerSchema): RouteDescription {
  return {
    summary,
    responses: {
      202: { description: 'Accepted; the simulator goes on', content: jsonContent(schema) },
    },
  };
}

/** A route that reads or changes one stream-backed resource: `ETag` out, `If-Match` in. */
export function versionedDescription(
  summary: string,
  method: 'read' | 'write',
  schema: AnswerSchema,
): RouteDescription {
  const ok = {
    description: 'The resource; its `ETag` is the revision to send back in `If-Match`',
    headers: { ETag: { $ref: '#/components/headers/ETag' } },
    content: jsonContent(schema),
  };
  if (method === 'read') return { summary, responses: { 200: ok } };
  return {
    summary,
    parameters: [{ $ref: '#/components/parameters/IfMatch' }],
    responses: { 200: ok, 412: errorResponseRef('PreconditionFailed') },
  };
}

/**
 * A provider's webhook: public, trusted through `header`, an HMAC over the raw body; `schema` is
 * the zod schema the route parses the event with.
 */
export function webhookDescription(
  summary: string,
  header: string,
  schema: z.ZodType,
): RouteDescription {
  return {
    summary,
    parameters: [
      {
        name: header,
        in: 'header',
        required: true,
        description: '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`',
        schema: { type: 'string' },
      },
    ],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: resolver(schema) } },
    } as RouteDescription['requestBody'],
    responses: {
      200: {
        description: 'Recorded (a duplicate event too): stop retrying',
        content: jsonContent(z.strictObject({ received: z.literal(true) })),
      },
      401: errorResponseRef('Unauthorized'),
    },
  };
}

/** A CSV download: the rows that match, streamed. */
export function csvDescription(summary: string): RouteDescription {
  return {
    summary,
    responses: {
      200: {
        description: 'CSV, one row per match',
        content: { 'text/csv': { schema: { type: 'string' } } },
      },
    },
  };
}
