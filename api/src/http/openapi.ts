import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { Hono } from 'hono';
import { generateSpecs } from 'hono-openapi';
import type { OpenAPIV3_1 } from 'openapi-types';
import { z } from 'zod';
import type { ErrorBody } from './errors';
import { describeRoute, errorResponseRef, type RouteDescription } from './openapiSpec';
import type { AppEnv } from './types';

export type OpenApiDocument = OpenAPIV3_1.Document;
type Operation = OpenAPIV3_1.OperationObject;
type Responses = OpenAPIV3_1.ResponsesObject;

const errorBodySchema = z
  .object({
    error: z.looseObject({
      code: z.string().meta({
        description:
          'Stable, machine-readable: invalid_request, unauthorized, forbidden, not_found, ' +
          'conflict, concurrency_conflict, precondition_failed, payload_too_large, ' +
          'unsupported_media_type, unprocessable, too_many_requests, internal_error, or a ' +
          "feature's own code (company_not_verified, provider_unavailable, ...)",
        examples: ['invalid_request'],
      }),
      message: z.string().meta({ description: 'For people; may change' }),
      fields: z.record(z.string(), z.string()).optional().meta({
        description: 'Per-field messages (`a.b` for nested fields), also spread into `error`',
      }),
    }),
  })
  .meta({ description: 'The one error shape of every failure' }) satisfies z.ZodType<ErrorBody>;

/** OpenAPI 3.1 sets the dialect for the whole document; a nested `$schema` only confuses tools. */
function withoutDialect(schema: Record<string, unknown>): OpenAPIV3_1.SchemaObject {
  const { $schema: _dialect, ...rest } = schema;
  return rest as OpenAPIV3_1.SchemaObject;
}

const errors: Record<string, [status: number, description: string]> = {
  BadRequest: [400, 'The request is not valid; `fields` names each bad field'],
  Unauthorized: [401, 'No valid bearer token'],
  Forbidden: [403, 'The caller lacks the role, or the company is not verified or suspended'],
  NotFound: [404, 'Nothing here, or it belongs to another company'],
  Conflict: [409, 'A concurrent change, or the same Idempotency-Key still running'],
  PreconditionFailed: [412, 'If-Match names a revision that is no longer current'],
  PayloadTooLarge: [413, 'The body is larger than 100 KB (5 MB for uploads)'],
  UnsupportedMediaType: [415, 'The body is not application/json'],
  Unprocessable: [422, 'The Idempotency-Key was used before with a different request'],
  TooManyRequests: [429, 'Too many attempts; retry later'],
  InternalError: [500, 'Something went wrong on our side (logged with the X-Request-Id)'],
  Unavailable: [503, 'A dependency is down or the read models are catching up; retry'],
};

const legacyPrefix = '/api/contacts-app/';

const tagDescriptions: Record<string, string> = {
  health: 'Liveness and read-model lag',
  auth: 'Registration, sign-in, tokens and the signed-in user',
  company: 'The users of the caller’s company',
  profile: 'The caller’s company profile',
  terminals: 'Payment terminals of the company',
  operator: 'The platform operator: verifying and suspending companies',
  customers: 'Customers (investors and leads) of the company',
  payments: 'Card payments through terminals and their refunds',
  transactions: 'The ledger of money movements',
  balance: 'The company’s balance',
  etransfers: 'Interac e-transfer requests and payouts',
  plans: 'Recurring billing plans',
  subscriptions: 'Customers’ subscriptions to plans',
  invoices: 'Invoices that subscriptions issue',
  billing: 'Billing settings',
  sandbox: 'The simulators’ customer side, mounted only while a simulator is the provider',
  docs: 'This description and its reference page',
  'Legacy (seed client)': "Calls of the seed's client, kept for it; deprecated for new clients",
};

/** After the features, in the reference's sidebar. */
const lastTags = ['sandbox', 'Legacy (seed client)', 'docs'];

const tagOf = (path: string): string => {
  if (path.startsWith(legacyPrefix)) return 'Legacy (seed client)';
  if (path.includes('/simulator')) return 'sandbox';
  const segment = path.split('/')[2] ?? '';
  return segment === 'openapi.json' ? 'docs' : segment;
};

/** The summary of a route without `describeRoute`: the coverage test refuses it. */
export const undescribedSummary = (method: string, path: string) =>
  `${method.toUpperCase()} ${path}`;

const changesState = (method: string) => method !== 'get' && method !== 'head';

/** The responses every route may give besides its own, by what the route does. */
function commonErrors(method: string, secured: boolean): Responses {
  return {
    400: errorResponseRef('BadRequest'),
    ...(secured
      ? { 401: errorResponseRef('Unauthorized'), 403: errorResponseRef('Forbidden') }
      : {}),
    404: errorResponseRef('NotFound'),
    ...(changesState(method)
      ? {
          409: errorResponseRef('Conflict'),
          413: errorResponseRef('PayloadTooLarge'),
          415: errorResponseRef('UnsupportedMediaType'),
        }
      : {}),
    500: errorResponseRef('InternalError'),
    503: errorResponseRef('Unavailable'),
  };
}

/** Until a route describes its answer: any JSON, so only the status is held to the document. */
const anyJson: OpenAPIV3_1.ResponseObject = {
  description: 'Success',
  content: { 'application/json': { schema: {} } },
};

function completeOperation(path: string, method: string, operation: Operation): Operation {
  const { 200: placeholder, ...own } = operation.responses ?? {};
  const success: Responses = {};
  if (placeholder && Object.keys(placeholder).length > 0) success[200] = placeholder;
  else if (!Object.keys(own).some((status) => status.startsWith('2'))) success[200] = anyJson;
  const legacy = path.startsWith(legacyPrefix);
  const security = [
    ...new Map((operation.security ?? []).map((s) => [JSON.stringify(s), s])).values(),
  ];
  return {
    summary: undescribedSummary(method, path),
    ...operation,
    tags: [tagOf(path)],
    ...(legacy ? { deprecated: true } : {}),
    security,
    responses: { ...commonErrors(method, security.length > 0), ...success, ...own },
  };
}

function completePaths(paths: OpenAPIV3_1.PathsObject): OpenAPIV3_1.PathsObject {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item ?? {}).map(([method, operation]) => [
          method,
          completeOperation(path, method, operation as Operation),
        ]),
      ),
    ]),
  );
}

const components: OpenAPIV3_1.ComponentsObject = {
  securitySchemes: {
    bearer: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'The `access_token` that `POST /api/auth` or `POST /api/auth/register` answers',
    },
  },
  schemas: { Error: withoutDialect(z.toJSONSchema(errorBodySchema)) },
  responses: Object.fromEntries(
    Object.entries(errors).map(([name, [, description]]) => [
      name,
      {
        description,
        ...(name === 'TooManyRequests'
          ? {
              headers: {
                'Retry-After': {
                  description: 'Seconds to wait before the next try',
                  schema: { type: 'integer' },
                },
              },
            }
          : {}),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    ]),
  ),
  parameters: {
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes a retry safe: the same key with the same request answers the first response again ' +
        '(`Idempotent-Replayed: true`) without running it twice. Use a fresh UUID per action.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    },
    IfMatch: {
      name: 'If-Match',
      in: 'header',
      required: false,
      description: 'The `ETag` last read; a newer revision answers 412 and changes nothing',
      schema: { type: 'string' },
      example: '"3"',
    },
  },
  headers: {
    ContentRange: {
      description: 'The rows shown and the total, as react-admin reads it: `customers 0-24/312`',
      schema: { type: 'string' },
    },
    ETag: {
      description: 'The revision of the resource, to send back in `If-Match`',
      schema: { type: 'string' },
    },
  },
};

/**
 * The OpenAPI 3.1 description of every route under `/api`, generated from the app's routes: the
 * request schemas are the zod schemas the validators run, the rest comes from the middleware
 * (`authenticate`, `idempotent`) and the routes' `describeRoute`.
 */
export async function buildOpenApiDocument(app: Hono<AppEnv>): Promise<OpenApiDocument> {
  const generated = await generateSpecs(app, {
    includeEmptyPaths: true,
    excludeStaticFile: false,
    exclude: [/^(?!\/api\/)/],
    defaultValidationErrorResponse: errorResponseRef('BadRequest') as never,
    documentation: {
      info: {
        title: 'Issuer Portal API',
        version: '1.0.0',
        description:
          'Every failure answers the one error shape (`Error`). Lists follow react-admin: ' +
          '`sort`, `range` and `filter` as JSON in the query, the total in `Content-Range`.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: '/', description: 'This portal' }],
      components,
    },
  });
  const document = generated as unknown as OpenApiDocument;
  const paths = completePaths(document.paths ?? {});
  const used = new Set(
    Object.values(paths).flatMap((item) =>
      Object.values(item ?? {}).flatMap((operation) => (operation as Operation).tags ?? []),
    ),
  );
  return {
    ...document,
    tags: [...used]
      .sort((a, b) => Number(lastTags.includes(a)) - Number(lastTags.includes(b)))
      .map((name) => ({ name, description: tagDescriptions[name] ?? name })),
    paths,
  };
}

const require = createRequire(import.meta.url);
const gzipAsync = promisify(gzipCallback);

/** The reference page's renderer, served by the API from node_modules: no CDN, works offline. */
export const scalarScriptPath = require.resolve('@scalar/api-reference/browser/standalone.js');

const docsPage = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Issuer Portal API</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="/api/docs/scalar.js"></script>
    <script>
      Scalar.createApiReference('#app', {
        url: '/api/openapi.json',
        withDefaultFonts: false,
        hideClientButton: true,
        showDeveloperTools: 'never',
        agent: { disabled: true },
        telemetry: false,
      });
    </script>
  </body>
</html>
`;

const documentDescription: RouteDescription = {
  summary: 'This OpenAPI 3.1 description',
  responses: {
    200: {
      description: 'The document',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['openapi', 'info', 'paths'],
            properties: {
              openapi: { const: '3.1.0' },
              info: { type: 'object' },
              paths: { type: 'object' },
            },
          },
        },
      },
    },
  },
};

const pageDescription: RouteDescription = {
  summary: 'The API reference page',
  responses: {
    200: { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } },
  },
};

const scriptDescription: RouteDescription = {
  summary: 'The reference page’s renderer (Scalar), served from node_modules',
  responses: {
    200: {
      description: 'JavaScript',
      content: { 'text/javascript': { schema: { type: 'string' } } },
    },
  },
};

/**
 * `GET /api/openapi.json`, `GET /api/docs` and its script. Added to the built app, since the
 * document describes every feature's routes (these three included).
 */
export function serveOpenApi(app: Hono<AppEnv>): Hono<AppEnv> {
  let document: Promise<OpenApiDocument> | undefined;
  // 3.5 MB as shipped, 1 MB gzipped (once, on first use).
  let script: Promise<{ plain: Buffer; gzipped: Buffer }> | undefined;
  return app
    .get('/api/openapi.json', describeRoute(documentDescription), async (c) => {
      document ??= buildOpenApiDocument(app);
      return c.json(await document, 200);
    })
    .get('/api/docs', describeRoute(pageDescription), (c) => c.html(docsPage, 200))
    .get('/api/docs/scalar.js', describeRoute(scriptDescription), async (c) => {
      script ??= readFile(scalarScriptPath).then(async (plain) => ({
        plain,
        gzipped: await gzipAsync(plain, { level: 9 }),
      }));
      const { plain, gzipped } = await script;
      const gzip = /\bgzip\b/.test(c.req.header('Accept-Encoding') ?? '');
      c.header('Content-Type', 'text/javascript; charset=utf-8');
      c.header('Cache-Control', 'public, max-age=86400');
      c.header('Vary', 'Accept-Encoding');
      if (gzip) c.header('Content-Encoding', 'gzip');
      return c.body(new Uint8Array(gzip ? gzipped : plain), 200);
    });
}
