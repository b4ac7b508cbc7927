import { randomUUID } from 'node:crypto';
import { invalid, investorStatus, leadStatus, notFound } from '@issuer/events';
import {
  type CustomerFilter,
  type CustomerListQuery,
  type CustomerSort,
  customerSortFields,
  getCustomer,
  listCustomers,
  listCustomersJson,
  streamCustomers,
} from '@issuer/projections';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import {
  type AppEnv,
  type Feature,
  formatETag,
  idempotent,
  jsonBody,
  jsonEncoded,
  pathParams,
  queryParams,
  setETag,
  validationError,
  waitForReadModels,
} from '../http';
import {
  answerDescription,
  createdDescription,
  csvDescription,
  describeRoute,
  listDescription,
  type RouteDescription,
  versionedDescription,
} from '../http/openapiSpec';
import { customerAccess } from './access';
import { addMany, maxBulkRows, summarize } from './bulkAdd';
import { csvStream } from './csvExport';
import { columnMappingSchema, parseCustomerCsv } from './csvImport';
import { addCustomer, removeCustomer, runOnCustomer, updateCustomer } from './customerCommands';
import {
  customerChangesSchema,
  customerIdSchema,
  customerPath,
  newCustomerSchema,
} from './customerFields';
import { type CustomerRecord, detailedRecord, recordOfRow } from './customerView';
import { customerAsOf, customerHistory } from './history';
import { logOnlyPushChannel, type PushNotificationChannel } from './pushNotifications';
import {
  bulkAddAnswerSchema,
  bulkOutcomeSchema,
  csvImportAnswerSchema,
  customerDetailSchema,
  customerHistorySchema,
  customerReadSchema,
  customerRecordSchema,
  notificationAnswerSchema,
} from './responses';

const sortFieldNames = Object.keys(customerSortFields) as [keyof typeof customerSortFields];
const oneOrMany = <Schema extends z.ZodType>(schema: Schema) =>
  z
    .union([schema, z.array(schema).max(20)])
    .transform((value) => (Array.isArray(value) ? value : [value]) as z.infer<Schema>[]);

export const customerFilterSchema = z.strictObject({
  q: z.string().max(200, 'Max character length is 200').optional(),
  starred: z.boolean().optional(),
  investorStatus: oneOrMany(investorStatus).optional(),
  leadStatus: oneOrMany(leadStatus).optional(),
  tags: oneOrMany(z.string().max(40)).optional(),
  id: z.array(z.string().max(100)).max(maxBulkRows).optional(),
});

const sortSchema = jsonEncoded(z.tuple([z.enum(sortFieldNames), z.enum(['ASC', 'DESC'])]));
const rangeSchema = jsonEncoded(
  z
    .tuple([z.int().min(0).max(1e9), z.int().min(0).max(1e9)])
    .refine(([start, end]) => end >= start && end - start < maxBulkRows, {
      message: `A range covers 1 to ${maxBulkRows} rows`,
    }),
);

const listQuerySchema = z.strictObject({
  sort: sortSchema.optional(),
  range: rangeSchema.optional(),
  filter: jsonEncoded(customerFilterSchema).optional(),
  embed: z.string().max(200).optional(),
});
const exportQuerySchema = listQuerySchema.omit({ range: true });
const oneQuerySchema = z.strictObject({
  asOf: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}/, 'Use an ISO 8601 time such as 2025-03-01T10:00:00Z')
    .refine((text) => !Number.isNaN(Date.parse(text)), 'Not a valid time')
    .optional(),
});
const reasonField = z.string().trim().max(1000, 'Max character length is 1000');
const idsSchema = z.array(customerIdSchema).min(1, 'Name at least one customer').max(maxBulkRows);

const bulkAddSchema = z.strictObject({ customers: z.array(z.unknown()).min(1).max(maxBulkRows) });
const bulkUpdateSchema = z.strictObject({ ids: idsSchema, changes: customerChangesSchema });
const bulkRemoveSchema = z.strictObject({ ids: idsSchema, reason: reasonField.optional() });
const idsOnlySchema = z.strictObject({ ids: idsSchema });
const investorStatusSchema = z.strictObject({
  status: investorStatus,
  reason: reasonField.optional(),
  evidence: z.string().trim().max(2000, 'Max character length is 2000').optional(),
});
const leadStatusSchema = z.strictObject({ leadStatus });
const notificationSchema = z.strictObject({
  title: z.string().trim().min(1, 'Title is required').max(100, 'Max character length is 100'),
  message: z
    .string()
    .trim()
    .min(1, 'Message is required')
    .max(1000, 'Max character length is 1000'),
});
const removeQuerySchema = z.strictObject({ reason: reasonField.optional() });

export const defaultSort: CustomerSort = { field: 'name', order: 'ASC' };

type ListQuery = z.infer<typeof listQuerySchema>;

function listQueryOf(c: Context<AppEnv>, query: ListQuery): CustomerListQuery {
  const filter: CustomerFilter = query.filter ?? {};
  const [field, order] = query.sort ?? [defaultSort.field, defaultSort.order];
  const [start, end] = query.range ?? [0, filter.id ? Math.max(filter.id.length - 1, 0) : 24];
  return {
    companyId: c.var.caller.companyId,
    sort: { field, order },
    range: { start, end },
    filter,
  };
}

/** `Content-Range: customers a-b/total`, or `customers *\/total` for an empty page. */
function setCustomersRange(c: Context<AppEnv>, start: number, shown: number, total: number) {
  c.header(
    'Content-Range',
    shown > 0 ? `customers ${start}-${start + shown - 1}/${total}` : `customers */${total}`,
  );
}

/** The list of react-admin's `getList`/`getMany`, with `Content-Range: customers a-b/total`. */
export async function customerList(c: Context<AppEnv>, query: ListQuery) {
  const listQuery = listQueryOf(c, query);
  const list = await listCustomers(c.var.deps.pool, listQuery);
  setCustomersRange(c, listQuery.range.start, list.rows.length, list.total);
  return list.rows.map(recordOfRow);
}

/** `customerList` as the answer itself: the page's JSON as PostgreSQL built it. */
async function customerListAnswer(c: Context<AppEnv>, query: ListQuery) {
  const listQuery = listQueryOf(c, query);
  const list = await listCustomersJson(c.var.deps.pool, listQuery);
  setCustomersRange(c, listQuery.range.start, list.shown, list.total);
  return c.body(list.json, 200, { 'Content-Type': 'application/json' });
}

/** The upload is read by hand (multipart or raw CSV), so it is described here. */
const csvImportDescription: RouteDescription = {
  ...answerDescription('Import customers from a CSV file', 200, csvImportAnswerSchema),
  requestBody: {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file'],
          properties: {
            file: { type: 'string', contentMediaType: 'text/csv' },
            mapping: { type: 'string', description: 'JSON `{"CSV column": "field"}`' },
          },
        },
      },
      'text/csv': { schema: { type: 'string' } },
    },
  },
};

/** The caller's customer from the read model; 404 for a missing, removed or foreign one. */
export async function customerOrNotFound(
  c: Context<AppEnv>,
  customerId: string,
): Promise<CustomerRecord> {
  const row = await getCustomer(c.var.deps.pool, c.var.caller.companyId, customerId);
  if (!row) throw notFound('Customer');
  return recordOfRow(row);
}

/** After a command: wait for the read models, answer the customer with its ETag. */
export async function answerCustomer(
  c: Context<AppEnv>,
  customerId: string,
  position: bigint | undefined,
) {
  await waitForReadModels(c, position);
  const record = await customerOrNotFound(c, customerId);
  setETag(c, BigInt(record.version));
  return detailedRecord(record);
}

/** Runs `each` for every id; a missing or foreign customer is reported, not fatal. */
export async function forEachCustomer(
  c: Context<AppEnv>,
  ids: readonly string[],
  each: (id: string) => Promise<bigint | undefined>,
) {
  let position: bigint | undefined;
  const results: { id: string; status: 'done' | 'not_found' }[] = [];
  for (const id of new Set(ids)) {
    try {
      const written = await each(id);
      if (written !== undefined && (position === undefined || written > position)) {
        position = written;
      }
      results.push({ id, status: 'done' });
    } catch (error) {
      if (!(error instanceof Error && 'status' in error && error.status === 404)) throw error;
      results.push({ id, status: 'not_found' });
    }
  }
  const readModels = await waitForReadModels(c, position);
  return { results, readModels };
}

const setStars = (c: Context<AppEnv>, ids: readonly string[], starred: boolean) =>
  forEachCustomer(c, ids, async (id) => {
    const outcome = await runOnCustomer(
      c,
      id,
      {
        type: starred ? 'StarCustomer' : 'UnstarCustomer',
        data: { companyId: c.var.caller.companyId },
      },
      { honourIfMatch: false },
    );
    return outcome.position;
  });

export const removeMany = (c: Context<AppEnv>, ids: readonly string[], reason: string | null) =>
  forEachCustomer(c, ids, (id) => removeCustomer(c, id, reason, { honourIfMatch: false }));

export { setStars };

/** An uploaded CSV: multipart (`file`, optional `mapping` JSON) or a `text/csv` body. */
async function uploadedCsv(c: Context<AppEnv>): Promise<{ text: string; mapping: unknown }> {
  const type = c.req.header('Content-Type') ?? '';
  const mappingText = c.req.query('mapping');
  if (/^text\/(csv|plain)\b/i.test(type)) {
    return { text: await c.req.text(), mapping: mappingText && JSON.parse(mappingText) };
  }
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw invalid('Upload the file as multipart/form-data (field "file") or as text/csv', {
      file: 'Upload a CSV file',
    });
  }
  const form = await new Response(await c.req.text(), { headers: { 'Content-Type': type } })
    .formData()
    .catch(() => {
      throw invalid('The upload is not valid multipart/form-data', { file: 'Upload a CSV file' });
    });
  const file = form.get('file');
  if (file === null) throw invalid('Upload a CSV file in the field "file"', { file: 'Required' });
  const mapping = form.get('mapping');
  return {
    text: typeof file === 'string' ? file : await file.text(),
    mapping:
      typeof mapping === 'string' && mapping
        ? JSON.parse(mapping)
        : mappingText && JSON.parse(mappingText),
  };
}

function parseMapping(mapping: unknown) {
  if (mapping === undefined || mapping === '') return undefined;
  const parsed = columnMappingSchema.safeParse(mapping);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

export function createCustomerRoutes(channel: PushNotificationChannel) {
  return new Hono<AppEnv>()
    .use('/customers/*', ...customerAccess)
    .get(
      '/customers',
      describeRoute(listDescription('List customers', customerRecordSchema)),
      queryParams(listQuerySchema),
      (c) => customerListAnswer(c, c.req.valid('query')),
    )
    .get(
      '/customers/export.csv',
      describeRoute(csvDescription('Export the matching customers as CSV')),
      queryParams(exportQuerySchema),
      async (c) => {
        const query = c.req.valid('query');
        const [field, order] = query.sort ?? [defaultSort.field, defaultSort.order];
        const batches = streamCustomers(c.var.deps.pool, {
          companyId: c.var.caller.companyId,
          sort: { field, order },
          filter: query.filter ?? {},
        });
        return c.body(csvStream(batches), 200, {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': 'attachment; filename="customers.csv"',
        });
      },
    )
    .post(
      '/customers',
      describeRoute(createdDescription('Add a customer', customerDetailSchema)),
      idempotent,
      jsonBody(newCustomerSchema),
      async (c) => {
        const added = await addCustomer(c, c.req.valid('json'));
        return c.json(await answerCustomer(c, added.id, added.position), 201);
      },
    )
    .post(
      '/customers/bulk',
      describeRoute(answerDescription('Add up to 1,000 customers', 200, bulkAddAnswerSchema)),
      idempotent,
      jsonBody(bulkAddSchema),
      async (c) => {
        const rows = c.req.valid('json').customers.map((input, row) => ({ row, input }));
        const { outcomes, position } = await addMany(c, rows);
        const readModels = await waitForReadModels(c, position);
        return c.json(
          {
            ...summarize(outcomes),
            results: outcomes.map(({ row, ...rest }) => ({ index: row, ...rest })),
            readModels,
          },
          200,
        );
      },
    )
    .post('/customers/import', describeRoute(csvImportDescription), idempotent, async (c) => {
      const upload = await uploadedCsv(c).catch((error: unknown) => {
        if (error instanceof SyntaxError)
          throw invalid('mapping must be JSON', { mapping: 'Must be valid JSON' });
        throw error;
      });
      const parsed = parseCustomerCsv(upload.text, parseMapping(upload.mapping));
      const { outcomes, position } = await addMany(c, parsed.rows);
      const readModels = await waitForReadModels(c, position);
      return c.json(
        {
          ...summarize(outcomes),
          columns: parsed.columns,
          results: outcomes.map(({ row, ...rest }) => ({ line: row, ...rest })),
          readModels,
        },
        200,
      );
    })
    .post(
      '/customers/bulk-update',
      describeRoute(answerDescription('Change several customers', 200, bulkOutcomeSchema)),
      idempotent,
      jsonBody(bulkUpdateSchema),
      async (c) => {
        const { ids, changes } = c.req.valid('json');
        if (changes.email !== undefined) {
          throw invalid('Emails are unique: change them one customer at a time', {
            'changes.email': 'Not allowed in a bulk update',
          });
        }
        return c.json(
          await forEachCustomer(c, ids, (id) =>
            updateCustomer(c, id, changes, { honourIfMatch: false }),
          ),
          200,
        );
      },
    )
    .post(
      '/customers/bulk-delete',
      describeRoute(answerDescription('Remove several customers', 200, bulkOutcomeSchema)),
      idempotent,
      jsonBody(bulkRemoveSchema),
      async (c) => {
        const { ids, reason } = c.req.valid('json');
        return c.json(await removeMany(c, ids, reason || null), 200);
      },
    )
    .post(
      '/customers/star',
      describeRoute(answerDescription('Star several customers', 200, bulkOutcomeSchema)),
      idempotent,
      jsonBody(idsOnlySchema),
      async (c) => c.json(await setStars(c, c.req.valid('json').ids, true), 200),
    )
    .post(
      '/customers/unstar',
      describeRoute(answerDescription('Unstar several customers', 200, bulkOutcomeSchema)),
      idempotent,
      jsonBody(idsOnlySchema),
      async (c) => c.json(await setStars(c, c.req.valid('json').ids, false), 200),
    )
    .get(
      '/customers/:id',
      describeRoute(
        versionedDescription(
          'Read a customer (as of a time with asOf)',
          'read',
          customerReadSchema,
        ),
      ),
      pathParams(customerPath),
      queryParams(oneQuerySchema),
      async (c) => {
        const { id } = c.req.valid('param');
        const { asOf } = c.req.valid('query');
        if (asOf) {
          const then = await customerAsOf(c.var.deps, c.var.caller.companyId, id, new Date(asOf));
          if (!then) throw notFound('Customer');
          return c.json(then, 200);
        }
        const record = await customerOrNotFound(c, id);
        c.header('ETag', formatETag(BigInt(record.version)));
        return c.json(detailedRecord(record), 200);
      },
    )
    .get(
      '/customers/:id/history',
      describeRoute(answerDescription('A customer’s events, in order', 200, customerHistorySchema)),
      pathParams(customerPath),
      async (c) => {
        const { id } = c.req.valid('param');
        const entries = await customerHistory(c.var.deps, c.var.caller.companyId, id);
        if (!entries) throw notFound('Customer');
        return c.json({ id, entries }, 200);
      },
    )
    .put(
      '/customers/:id',
      describeRoute(versionedDescription('Change a customer', 'write', customerDetailSchema)),
      idempotent,
      pathParams(customerPath),
      jsonBody(customerChangesSchema),
      async (c) => {
        const { id } = c.req.valid('param');
        const position = await updateCustomer(c, id, c.req.valid('json'));
        return c.json(await answerCustomer(c, id, position), 200);
      },
    )
    .delete(
      '/customers/:id',
      describeRoute(versionedDescription('Remove a customer', 'write', customerRecordSchema)),
      idempotent,
      pathParams(customerPath),
      queryParams(removeQuerySchema),
      async (c) => {
        const { id } = c.req.valid('param');
        const record = await customerOrNotFound(c, id);
        const position = await removeCustomer(c, id, c.req.valid('query').reason || null);
        await waitForReadModels(c, position);
        return c.json(record, 200);
      },
    )
    .post(
      '/customers/:id/star',
      describeRoute(versionedDescription('Star a customer', 'write', customerDetailSchema)),
      idempotent,
      pathParams(customerPath),
      async (c) => c.json(await starCommand(c, c.req.valid('param').id, 'StarCustomer'), 200),
    )
    .post(
      '/customers/:id/unstar',
      describeRoute(versionedDescription('Unstar a customer', 'write', customerDetailSchema)),
      idempotent,
      pathParams(customerPath),
      async (c) => c.json(await starCommand(c, c.req.valid('param').id, 'UnstarCustomer'), 200),
    )
    .post(
      '/customers/:id/toggle-star',
      describeRoute(
        versionedDescription('Toggle a customer’s star', 'write', customerDetailSchema),
      ),
      idempotent,
      pathParams(customerPath),
      async (c) => c.json(await starCommand(c, c.req.valid('param').id, 'ToggleCustomerStar'), 200),
    )
    .post(
      '/customers/:id/investor-status',
      describeRoute(
        versionedDescription('Set a customer’s investor status', 'write', customerDetailSchema),
      ),
      idempotent,
      pathParams(customerPath),
      jsonBody(investorStatusSchema),
      async (c) => {
        const { id } = c.req.valid('param');
        const { status, reason, evidence } = c.req.valid('json');
        const { companyId, userId } = c.var.caller;
        const outcome = await runOnCustomer(c, id, {
          type: 'ChangeInvestorStatus',
          data: {
            companyId,
            to: status,
            reason: reason ?? null,
            evidence: evidence ?? null,
            actorId: userId,
            now: c.var.deps.clock(),
          },
        });
        return c.json(await answerCustomer(c, id, outcome.position), 200);
      },
    )
    .post(
      '/customers/:id/lead-status',
      describeRoute(versionedDescription('Set a lead’s status', 'write', customerDetailSchema)),
      idempotent,
      pathParams(customerPath),
      jsonBody(leadStatusSchema),
      async (c) => {
        const { id } = c.req.valid('param');
        const outcome = await runOnCustomer(c, id, {
          type: 'ChangeLeadStatus',
          data: { companyId: c.var.caller.companyId, to: c.req.valid('json').leadStatus },
        });
        return c.json(await answerCustomer(c, id, outcome.position), 200);
      },
    )
    .post(
      '/customers/:id/notifications',
      describeRoute(
        createdDescription('Record a notification to a customer', notificationAnswerSchema),
      ),
      idempotent,
      pathParams(customerPath),
      jsonBody(notificationSchema),
      async (c) => {
        const { id } = c.req.valid('param');
        const { companyId } = c.var.caller;
        const notification = { notificationId: randomUUID(), ...c.req.valid('json') };
        const outcome = await runOnCustomer(c, id, {
          type: 'SendPushNotification',
          data: { companyId, ...notification },
        });
        try {
          await channel.deliver({ ...notification, companyId, customerId: id });
        } catch (error) {
          // Recorded either way; delivery is best effort and must not turn into a retry.
          c.var.deps.logger.warn(
            { err: error, customerId: id },
            'push notification delivery failed',
          );
        }
        const readModels = await waitForReadModels(c, outcome.position);
        return c.json({ ...notification, customerId: id, readModels }, 201);
      },
    );
}

async function starCommand(
  c: Context<AppEnv>,
  id: string,
  type: 'StarCustomer' | 'UnstarCustomer' | 'ToggleCustomerStar',
) {
  const outcome = await runOnCustomer(c, id, { type, data: { companyId: c.var.caller.companyId } });
  return answerCustomer(c, id, outcome.position);
}

export const customerRoutes: Feature = (deps) =>
  createCustomerRoutes(logOnlyPushChannel(deps.logger));

/** Routes whose bodies may exceed the usual 100 KB (a thousand rows, a CSV file). */
export const customerUploadPaths = ['/api/customers/bulk', '/api/customers/import'];
