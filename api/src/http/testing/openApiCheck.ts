import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Hono } from 'hono';
import type { OpenAPIV3_1 } from 'openapi-types';
import pino from 'pino';
import { createApp } from '../../app';
import { buildOpenApiDocument, type OpenApiDocument } from '../openapi';
import type { AppDependencies, AppEnv } from '../types';

type Operation = OpenAPIV3_1.OperationObject;
type Response = OpenAPIV3_1.ResponseObject;

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const documentId = 'https://issuer-portal.test/openapi.json';

/**
 * The app as `npm start` builds it, with the simulators as card processor and e-transfer provider
 * (so their sandbox routes are mounted); building routes touches no dependency but the logger.
 */
export function appForRoutes(): Hono<AppEnv> {
  const simulator = { name: 'simulator', presentCard: () => {}, deposit: () => {} };
  return createApp({
    config: {},
    logger: pino({ level: 'silent' }),
    paymentGateway: simulator,
    etransferProvider: simulator,
  } as unknown as AppDependencies);
}

let checker: Promise<OpenApiChecker> | undefined;

/** One document and one compiled validator per test file. */
export function openApiChecker(): Promise<OpenApiChecker> {
  checker ??= buildOpenApiDocument(appForRoutes()).then((document) => new OpenApiChecker(document));
  return checker;
}

const pointer = (...parts: string[]) =>
  parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** Checks an HTTP answer against the OpenAPI document: its status is listed, its JSON body fits. */
export class OpenApiChecker {
  private readonly ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  private readonly templates: { path: string; pattern: RegExp; fixed: boolean }[];

  constructor(readonly document: OpenApiDocument) {
    this.ajv.addSchema({ ...document, $id: documentId });
    this.templates = Object.keys(document.paths ?? {}).map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+').replaceAll('.', '\\.')}$`),
      fixed: !path.includes('{'),
    }));
  }

  /** The path template the document lists `path` under, a fixed path before a parameterised one. */
  templateOf(path: string): string | undefined {
    const matches = this.templates.filter((template) => template.pattern.test(path));
    return (matches.find((template) => template.fixed) ?? matches[0])?.path;
  }

  /** Throws with what the document lacks when `response` is not what it describes. */
  async check(method: string, url: string, response: globalThis.Response): Promise<void> {
    const path = new URL(url, 'http://portal').pathname;
    if (!path.startsWith('/api/')) return;
    const template = this.templateOf(path);
    const operation = template
      ? (this.document.paths?.[template]?.[method.toLowerCase() as 'get'] as Operation | undefined)
      : undefined;
    const where = `${method} ${path}${template && template !== path ? ` (${template})` : ''}`;
    if (!operation) {
      // Unknown paths and methods answer 404/405 in the one error shape.
      if (response.status === 404 || response.status === 405) {
        await this.checkBody(where, response, '#/components/schemas/Error');
        return;
      }
      throw new Error(
        `${where} answered ${response.status}, but the document has no such operation`,
      );
    }
    const status = String(response.status);
    const described = operation.responses?.[status] as Response | OpenAPIV3_1.ReferenceObject;
    if (!described) {
      throw new Error(
        `${where} answered ${status}, which /api/openapi.json does not list for it ` +
          `(it lists ${Object.keys(operation.responses ?? {}).join(', ')}): describe it with ` +
          'describeRoute({ responses: { ... } }) on the route',
      );
    }
    const ref = '$ref' in described ? described.$ref : undefined;
    const base = ref
      ? `#/components/responses/${pointer(ref.split('/').pop() ?? '')}`
      : `#/paths/${pointer(template ?? '')}/${method.toLowerCase()}/responses/${status}`;
    const resolved = ref
      ? (this.document.components?.responses?.[ref.split('/').pop() ?? ''] as Response)
      : (described as Response);
    if (resolved.content?.['application/json']?.schema) {
      await this.checkBody(where, response, `${base}/content/application~1json/schema`);
    }
  }

  private async checkBody(where: string, response: globalThis.Response, schemaPointer: string) {
    const type = response.headers.get('Content-Type') ?? '';
    if (!type.includes('json')) return;
    const text = await response.clone().text();
    if (text === '') return;
    const validate = this.ajv.getSchema(`${documentId}${schemaPointer}`);
    if (!validate) throw new Error(`No schema at ${schemaPointer}`);
    if (!validate(JSON.parse(text))) {
      throw new Error(
        `${where} answered ${response.status} with a body /api/openapi.json does not describe ` +
          `(${schemaPointer}): ${this.ajv.errorsText(validate.errors)}\n${text.slice(0, 500)}`,
      );
    }
  }
}
