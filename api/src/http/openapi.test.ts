import { createConfig, lintFromString } from '@redocly/openapi-core';
import type { OpenAPIV3_1 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { type OpenApiDocument, undescribedSummary } from './openapi';
import { appForRoutes, openApiChecker } from './testing/openApiCheck';

type Schema = OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject;

/** What a schema says beyond words: without it, anything (or any object) is "described". */
const annotations = new Set(['description', 'title', 'examples', 'example', 'deprecated']);

/**
 * Whether `schema` leaves the body open: `{}`, an object without properties, or an array of
 * such. An object that only has `additionalProperties` (a map) or combines schemas is described.
 */
function isBare(document: OpenApiDocument, schema: Schema | undefined): boolean {
  if (schema === undefined) return true;
  if ('$ref' in schema) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return isBare(document, document.components?.schemas?.[name]);
  }
  const keys = Object.keys(schema).filter((key) => !annotations.has(key));
  if (keys.length === 0) return true;
  if (schema.type === 'array') return isBare(document, schema.items as Schema | undefined);
  const saysMore = ['properties', 'additionalProperties', 'patternProperties', 'anyOf', 'oneOf'];
  return schema.type === 'object' && !saysMore.some((key) => key in schema);
}

const toTemplate = (path: string) =>
  path.replace(/:([^/{?]+)(\{[^}]*\})?\??/g, (_match, name: string) => `{${name}}`);

describe('the OpenAPI description (GET /api/openapi.json)', () => {
  it('passes the Redocly linter with its recommended rules, warnings included', async () => {
    const { document } = await openApiChecker();
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: 'openapi.json',
      config: await createConfig({ extends: ['recommended'] }),
    });
    const described = problems.map(
      (problem) =>
        `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
    );
    expect(described).toEqual([]);
  });

  it('describes every route of the app under /api, each with a summary of its own', async () => {
    const { document } = await openApiChecker();
    const missing = appForRoutes()
      .routes.filter(({ method, path }) => method !== 'ALL' && path.startsWith('/api/'))
      .map(({ method, path }) => ({ method: method.toLowerCase(), path: toTemplate(path) }))
      .filter(({ method, path }) => {
        const operation = document.paths?.[path]?.[method as 'get'];
        return !operation || operation.summary === undescribedSummary(method, path);
      })
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(
      [...new Set(missing)],
      'These routes are missing from /api/openapi.json or undescribed. Give each route, right ' +
        "after its path, describeRoute({ summary: 'What it does', responses: { 201: ... } }) " +
        'from api/src/http/openapiSpec.ts (or listDescription / createdDescription / ' +
        'versionedDescription / answerDescription there), and validate its input with ' +
        'jsonBody / queryParams / pathParams from api/src/http/validation.ts, which put the zod ' +
        'schemas into the document.',
    ).toEqual([]);
  });

  it('describes every success body precisely: no 2xx JSON answer is `{}` or a bare object', async () => {
    const { document } = await openApiChecker();
    const open = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item ?? {}).flatMap(([method, operation]) =>
        Object.entries((operation as OpenAPIV3_1.OperationObject).responses ?? {})
          .filter(([status]) => status.startsWith('2'))
          .flatMap(([status, response]) => {
            const described = response as OpenAPIV3_1.ResponseObject;
            const json = described.content?.['application/json'];
            return json && isBare(document, json.schema)
              ? [`${method.toUpperCase()} ${path} ${status}: ${JSON.stringify(json.schema)}`]
              : [];
          }),
      ),
    );
    expect(
      open,
      'These operations describe their success body as any JSON or any object. Give each a ' +
        'zod schema of what it really answers (answerDescription / listDescription / ' +
        'createdDescription from api/src/http/openapiSpec.ts; `.meta({ id })` for a shared ' +
        'resource), derived next to the view that builds the answer.',
    ).toEqual([]);
  });

  it('is served as JSON, with the reference page and its renderer from the portal itself', async () => {
    const app = appForRoutes();
    const json = await app.request('/api/openapi.json');
    expect(json.status).toBe(200);
    const document = (await json.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toContain('/api/customers/{id}');

    const page = await app.request('/api/docs');
    expect(page.headers.get('Content-Type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('src="/api/docs/scalar.js"');
    expect(html).not.toMatch(/https?:\/\//);

    const script = await app.request('/api/docs/scalar.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('Content-Type')).toMatch(/^text\/javascript/);
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    const gzipped = await app.request('/api/docs/scalar.js', {
      headers: { 'Accept-Encoding': 'gzip, br' },
    });
    expect(gzipped.headers.get('Content-Encoding')).toBe('gzip');
  });

  it('marks the seed client’s calls as deprecated', async () => {
    const { document } = await openApiChecker();
    const legacy = document.paths?.['/api/contacts-app/contacts']?.get;
    expect(legacy?.deprecated).toBe(true);
    expect(legacy?.tags).toEqual(['Legacy (seed client)']);
    expect(document.paths?.['/api/customers']?.get?.deprecated).toBeUndefined();
  });

  it('fails an answer the document does not show', async () => {
    const checker = await openApiChecker();
    const undocumentedStatus = new Response('{}', {
      status: 418,
      headers: { 'Content-Type': 'application/json' },
    });
    await expect(checker.check('GET', '/api/customers', undocumentedStatus)).rejects.toThrow(
      /answered 418, which \/api\/openapi.json does not list/,
    );
    const notTheErrorShape = new Response(JSON.stringify({ message: 'nope' }), {
      status: 404,
      headers: { 'Content-Type': 'application/json' },
    });
    await expect(checker.check('GET', '/api/customers/x', notTheErrorShape)).rejects.toThrow(
      /does not describe/,
    );
  });
});
