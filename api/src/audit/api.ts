import { forbidden, notFound } from '@issuer/events';
import {
  type AuditEntry,
  type AuditFilter,
  auditEventTypes,
  auditResources,
  getAuditEntry,
  listAuditJson,
  streamAudit,
} from '@issuer/projections';
import { stringify } from 'csv-stringify/sync';
import { Hono, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { authenticate } from '../auth/authenticate';
import { neutralizeFormula } from '../customers/csvFormulas';
import { type AppEnv, type Feature, jsonEncoded, pathParams, queryParams } from '../http';
import {
  answerDescription,
  csvDescription,
  describeRoute,
  listDescription,
} from '../http/openapiSpec';
import {
  idParam,
  isoTime,
  oneOrMany,
  rangeParam,
  setContentRange,
  sortParam,
} from '../transactions/listParams';

/** Who reads the audit log: the company's admins and compliance reviewers. */
export const auditReaders = ['admin', 'compliance'] as const;

const requireAuditReader: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.var.caller.roles.some((role) => (auditReaders as readonly string[]).includes(role))) {
    throw forbidden();
  }
  await next();
};

/** One entry of the audit trail, as PostgreSQL builds it (`auditJson` in the read model). */
const auditEntrySchema = z
  .strictObject({
    id: z.string().meta({ description: 'The event’s position: the order of the trail' }),
    at: z.string().meta({ description: 'When it was recorded' }),
    occurredAt: z.string(),
    actorId: z.string(),
    actorName: z.string().nullable(),
    actorIsOperator: z.boolean().meta({
      description: 'The platform operator acted: a screen names the role, not the person',
    }),
    eventType: z.string(),
    resource: z.string(),
    recordId: z.string(),
    reason: z.string().nullable(),
    eventId: z.string(),
    details: z
      .record(z.string(), z.unknown())
      .meta({ description: 'The event’s data, secrets (passwords, tokens) left out' }),
    amountCents: z.int().nullable().meta({
      description: 'The amount the event names (a payment, a refund, a credit…), in CAD cents',
    }),
  })
  .meta({ id: 'AuditEntry' }) satisfies z.ZodType<AuditEntry>;

const resources = [...new Set(Object.values(auditResources))] as [string, ...string[]];

const auditFilterSchema = z
  .strictObject({
    actorId: idParam.optional(),
    eventType: oneOrMany(z.enum(auditEventTypes as [string, ...string[]])).optional(),
    resource: z.enum(resources).optional(),
    recordId: idParam.optional(),
    from: isoTime.optional(),
    to: isoTime.optional(),
  })
  .refine(({ from, to }) => !from || !to || from <= to, {
    path: ['to'],
    message: 'Must not be before from',
  })
  .refine(({ resource, recordId }) => !recordId || resource, {
    path: ['resource'],
    message: 'Name the resource of recordId',
  });

const listQuerySchema = z.strictObject({
  sort: sortParam(['at', 'id'] as const).optional(),
  range: rangeParam.optional(),
  filter: jsonEncoded(auditFilterSchema).optional(),
});
const exportQuerySchema = listQuerySchema.omit({ range: true });

function toFilter(filter: z.infer<typeof auditFilterSchema> | undefined): AuditFilter {
  const { resource, recordId, actorId, eventType, from, to } = filter ?? {};
  return {
    ...(actorId ? { actorId } : {}),
    ...(eventType ? { eventType } : {}),
    ...(resource && recordId ? { record: { resource, recordId } } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
}

export const auditExportColumns = [
  'id',
  'at',
  'occurredAt',
  'actorId',
  'actorName',
  'eventType',
  'resource',
  'recordId',
  'reason',
  'eventId',
  'amountCents',
] as const;

function cells(entry: AuditEntry): unknown[] {
  return auditExportColumns.map((column) => {
    const value = entry[column];
    return typeof value === 'string' ? neutralizeFormula(value) : (value ?? '');
  });
}

/** CSV of the entries as they stream from the read model, a batch at a time (header first). */
function auditCsv(batches: AsyncGenerator<AuditEntry[]>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let headerSent = false;
  return new ReadableStream({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(stringify([auditExportColumns as readonly string[]])));
      }
      const next = await batches.next();
      if (next.done) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(stringify(next.value.map(cells))));
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}

/**
 * The company's audit log: react-admin's getList with `Content-Range: audit a-b/total` (exact),
 * the CSV export and one entry. Newest first unless sorted ASC; `at` and `id` sort alike (the
 * events' order).
 */
export const auditRoutes: Feature = () =>
  new Hono<AppEnv>()
    .use('/audit', authenticate, requireAuditReader)
    .use('/audit/*', authenticate, requireAuditReader)
    .get(
      '/audit',
      describeRoute(listDescription('List the audit trail', auditEntrySchema)),
      queryParams(listQuerySchema),
      async (c) => {
        const query = c.req.valid('query');
        const [start, end] = query.range ?? [0, 24];
        const list = await listAuditJson(c.var.deps.pool, {
          companyId: c.var.caller.companyId,
          order: query.sort?.[1] ?? 'DESC',
          range: { start, end },
          filter: toFilter(query.filter),
        });
        setContentRange(c, 'audit', start, list.shown, list.total);
        return c.body(list.json, 200, { 'Content-Type': 'application/json' });
      },
    )
    .get(
      '/audit/export.csv',
      describeRoute(csvDescription('Export the audit trail as CSV')),
      queryParams(exportQuerySchema),
      async (c) => {
        const query = c.req.valid('query');
        const batches = streamAudit(c.var.deps.pool, {
          companyId: c.var.caller.companyId,
          order: query.sort?.[1] ?? 'DESC',
          filter: toFilter(query.filter),
        });
        return c.body(auditCsv(batches), 200, {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': 'attachment; filename="audit.csv"',
        });
      },
    )
    .get(
      '/audit/:id',
      describeRoute(answerDescription('One audit entry', 200, auditEntrySchema)),
      pathParams(z.strictObject({ id: z.string().regex(/^\d{1,18}$/) })),
      async (c) => {
        const entry = await getAuditEntry(
          c.var.deps.pool,
          c.var.caller.companyId,
          c.req.valid('param').id,
        );
        if (!entry) throw notFound('Audit entry');
        return c.json(entry, 200);
      },
    );
