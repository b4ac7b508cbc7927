import { notFound } from '@issuer/events';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { customerAccessGuard } from '../customers/access';
import { customerDecider } from '../customers/businessLogic';
import { customerStream } from '../customers/customerCommands';
import { logOnlyPushChannel, type PushNotificationChannel } from '../customers/pushNotifications';
import {
  type AppDependencies,
  type AppEnv,
  type Feature,
  idempotent,
  jsonBody,
  jsonEncoded,
  queryParams,
  validationError,
  waitForReadModels,
} from '../http';
import {
  answerDescription,
  createdDescription,
  describeRoute,
  listDescription,
} from '../http/openapiSpec';
import { runOnStream } from '../http/streamCommands';
import { origin } from '../payments/api';
import {
  idParam,
  listWindow,
  maxPageRows,
  oneOrMany,
  rangeParam,
  setContentRange,
  sortParam,
} from '../transactions/listParams';
import { certificateOf, certificateSchema } from './certificate';
import {
  addDocumentVersion,
  cancelSignatureRequest,
  isDocumentId,
  isSignatureRequestId,
  loadSignatureRequest,
  ownDocument,
  removeDocument,
  requestSignature,
  uploadDocument,
} from './documentCommands';
import { streamFile } from './download';
import {
  documentResourceSchema,
  documentSortFields,
  getDocument,
  getSignatureRequestRow,
  listDocuments,
  listSignatureRequests,
  signatureRequestResourceSchema,
  signatureRequestSortFields,
  toSignatureRequestResource,
} from './queries';
import { isSignatureRequest, signatureStatuses } from './signatureRequest';
import { signingKey, signingPath } from './signingLink';
import { type DocumentStorage, postgresDocumentStorage } from './storage';
import { receiveUpload } from './upload';

const optionalId = (what: string) =>
  z
    .string({ error: `Choose a ${what}` })
    .trim()
    .max(100, `Unknown ${what}`)
    .optional()
    .transform((value) => value || null);

const uploadFieldsSchema = z.strictObject({
  title: z.string().trim().max(200, 'Max character length is 200').optional(),
  customerId: optionalId('customer'),
  roundId: optionalId('funding round'),
});

const signatureRequestSchema = z.strictObject({
  customerId: z.string({ error: 'Choose a customer' }).trim().min(1, 'Choose a customer').max(100),
  documentIds: z
    .array(z.string().trim().min(1).max(100), { error: 'Choose the documents to sign' })
    .min(1, 'Choose at least one document')
    .max(20, 'At most 20 documents'),
  roundId: optionalId('funding round'),
  message: z.string().trim().max(1000, 'Max character length is 1000').optional(),
  expiresInDays: z
    .int({ error: 'A whole number of days' })
    .min(1, 'At least 1')
    .max(90, 'At most 90')
    .optional(),
});

/** A new version takes the document's title and links: the file is all it sends. */
const versionFieldsSchema = z.strictObject({});

const fieldsOf = <Fields extends Record<string, string>>(fields: Fields) =>
  Object.keys(fields) as [keyof Fields & string, ...(keyof Fields & string)[]];

const documentListSchema = z.strictObject({
  sort: sortParam(fieldsOf(documentSortFields)).optional(),
  range: rangeParam.optional(),
  filter: jsonEncoded(
    z.strictObject({
      status: oneOrMany(z.enum(['active', 'removed'])).optional(),
      customerId: idParam.optional(),
      roundId: idParam.optional(),
      q: z.string().max(200, 'Max character length is 200').optional(),
      id: z.array(idParam).max(maxPageRows).optional(),
    }),
  ).optional(),
});
const signatureRequestListSchema = z.strictObject({
  sort: sortParam(fieldsOf(signatureRequestSortFields)).optional(),
  range: rangeParam.optional(),
  filter: jsonEncoded(
    z.strictObject({
      status: oneOrMany(z.enum(signatureStatuses)).optional(),
      customerId: idParam.optional(),
      documentId: idParam.optional(),
      id: z.array(idParam).max(maxPageRows).optional(),
    }),
  ).optional(),
});
const versionQuery = z.strictObject({
  version: z
    .string()
    .regex(/^[1-9]\d{0,5}$/, 'A version number')
    .transform(Number)
    .optional(),
});

/** Document upload paths: their bodies are streamed and bounded by the route (20 MB). */
export const documentUploadPaths = [/^\/api\/documents$/, /^\/api\/documents\/[^/]+\/versions$/];

/** Admin, staff and user manage documents; compliance reads them (as customers). */
const access = customerAccessGuard();

export const storageOf = (deps: AppDependencies): DocumentStorage =>
  deps.documentStorage ?? postgresDocumentStorage(deps.pool);

async function answerDocument(c: Context<AppEnv>, documentId: string, position?: bigint) {
  await waitForReadModels(c, position);
  const found = isDocumentId(documentId)
    ? await getDocument(c.var.deps.pool, c.var.caller.companyId, documentId)
    : undefined;
  if (!found) throw notFound('Document');
  return found;
}

async function answerRequest(c: Context<AppEnv>, requestId: string, position?: bigint) {
  await waitForReadModels(c, position);
  const row = isSignatureRequestId(requestId)
    ? await getSignatureRequestRow(c.var.deps.pool, c.var.caller.companyId, requestId)
    : undefined;
  if (!row) throw notFound('Signature request');
  return toSignatureRequestResource(row.state, row.customer_name, pathOf(c)(requestId));
}

const pathOf = (c: Context<AppEnv>) => {
  const key = signingKey(c.var.deps.config.tokenSecret);
  return (requestId: string) => signingPath(key, requestId);
};

function versionFields(fields: Record<string, string>) {
  const parsed = versionFieldsSchema.safeParse(fields);
  if (!parsed.success) throw validationError(parsed.error);
}

function uploadFields(fields: Record<string, string>) {
  // A field left empty in a form is a field not given.
  const parsed = uploadFieldsSchema.safeParse(fields);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

const titleOf = (fileName: string) => fileName.replace(/\.[a-z0-9]{1,5}$/i, '') || fileName;

/** Records the link's notice on the customer (without the link, a credential) and sends it. */
async function notifySigner(
  c: Context<AppEnv>,
  channel: PushNotificationChannel,
  request: { requestId: string; customerId: string; documents: number },
) {
  const { companyId } = c.var.caller;
  const notification = {
    notificationId: `${request.requestId}:notice`,
    title: 'Documents to sign',
    message: `${request.documents} document(s) are waiting for your signature.`,
  };
  await runOnStream(
    c.var.deps,
    customerStream(request.customerId),
    customerDecider,
    { type: 'SendPushNotification', data: { companyId, ...notification } },
    (state) => (state.status === 'active' ? state.companyId : undefined),
    { ...origin(c), userId: c.var.caller.userId },
  );
  const link = new URL(pathOf(c)(request.requestId), c.req.url).toString();
  try {
    await channel.deliver({
      ...notification,
      message: `${notification.message} ${link}`,
      companyId,
      customerId: request.customerId,
    });
  } catch (error) {
    c.var.deps.logger.warn({ err: error, ...request }, 'signing link delivery failed');
  }
}

export function createDocumentRoutes(channel: PushNotificationChannel): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get(
      '/documents',
      describeRoute(listDescription('List documents', documentResourceSchema)),
      access,
      queryParams(documentListSchema),
      async (c) => {
        const query = c.req.valid('query');
        const window = listWindow(query, 'updatedAt');
        const list = await listDocuments(c.var.deps.pool, c.var.caller.companyId, {
          ...window,
          filter: query.filter ?? {},
        });
        setContentRange(c, 'documents', window.range.start, list.rows.length, list.total);
        return c.json(list.rows, 200);
      },
    )
    .post(
      '/documents',
      describeRoute(createdDescription('Upload a document', documentResourceSchema)),
      access,
      async (c) => {
        const { file, fields } = await receiveUpload(c, storageOf(c.var.deps), uploadFields);
        const { title, customerId, roundId } = uploadFields(fields);
        const { documentId, position } = await uploadDocument(c.var.deps, {
          ...origin(c),
          title: title || titleOf(file.fileName),
          file,
          customerId,
          roundId,
        });
        return c.json(await answerDocument(c, documentId, position), 201);
      },
    )
    .get(
      '/documents/:id',
      describeRoute(answerDescription('One document', 200, documentResourceSchema)),
      access,
      async (c) => c.json(await answerDocument(c, c.req.param('id')), 200),
    )
    .delete(
      '/documents/:id',
      describeRoute(answerDescription('Remove a document', 200, documentResourceSchema)),
      access,
      async (c) => {
        const documentId = c.req.param('id');
        const outcome = await removeDocument(c.var.deps, {
          ...origin(c),
          documentId,
          reason: null,
        });
        return c.json(await answerDocument(c, documentId, outcome.position), 200);
      },
    )
    .post(
      '/documents/:id/versions',
      describeRoute(
        createdDescription('Upload a new version of a document', documentResourceSchema),
      ),
      access,
      async (c) => {
        const documentId = c.req.param('id');
        await ownDocument(c.var.deps, c.var.caller.companyId, documentId);
        const { file } = await receiveUpload(c, storageOf(c.var.deps), versionFields);
        const outcome = await addDocumentVersion(c.var.deps, { ...origin(c), documentId, file });
        return c.json(await answerDocument(c, documentId, outcome.position), 201);
      },
    )
    .get(
      '/documents/:id/content',
      describeRoute({
        summary: 'A document’s file',
        responses: {
          200: { description: 'The file' },
          304: { description: 'Unchanged since the ETag sent in If-None-Match' },
        },
      }),
      access,
      queryParams(versionQuery),
      async (c) => {
        const document = await ownDocument(c.var.deps, c.var.caller.companyId, c.req.param('id'));
        const wanted = c.req.valid('query').version ?? document.versions.length;
        const version = document.versions[wanted - 1];
        if (!version) throw notFound('Version');
        return streamFile(c, storageOf(c.var.deps), version);
      },
    )
    .get(
      '/signature-requests',
      describeRoute(listDescription('List signature requests', signatureRequestResourceSchema)),
      access,
      queryParams(signatureRequestListSchema),
      async (c) => {
        const query = c.req.valid('query');
        const window = listWindow(query, 'requestedAt');
        const list = await listSignatureRequests(
          c.var.deps.pool,
          c.var.caller.companyId,
          { ...window, filter: query.filter ?? {} },
          pathOf(c),
        );
        setContentRange(c, 'signature-requests', window.range.start, list.rows.length, list.total);
        return c.json(list.rows, 200);
      },
    )
    .post(
      '/signature-requests',
      describeRoute(createdDescription('Ask for a signature', signatureRequestResourceSchema)),
      access,
      idempotent,
      jsonBody(signatureRequestSchema),
      async (c) => {
        const body = c.req.valid('json');
        const { requestId, position } = await requestSignature(c.var.deps, {
          ...origin(c),
          customerId: body.customerId,
          documentIds: body.documentIds,
          roundId: body.roundId,
          message: body.message || null,
          expiresInDays: body.expiresInDays ?? 14,
        });
        await notifySigner(c, channel, {
          requestId,
          customerId: body.customerId,
          documents: body.documentIds.length,
        });
        return c.json(await answerRequest(c, requestId, position), 201);
      },
    )
    .get(
      '/signature-requests/:id',
      describeRoute(
        answerDescription('One signature request', 200, signatureRequestResourceSchema),
      ),
      access,
      async (c) => c.json(await answerRequest(c, c.req.param('id')), 200),
    )
    .post(
      '/signature-requests/:id/cancel',
      describeRoute(
        answerDescription('Cancel a signature request', 200, signatureRequestResourceSchema),
      ),
      access,
      idempotent,
      async (c) => {
        const requestId = c.req.param('id');
        const outcome = await cancelSignatureRequest(c.var.deps, { ...origin(c), requestId });
        return c.json(await answerRequest(c, requestId, outcome.position), 200);
      },
    )
    .get(
      '/signature-requests/:id/certificate',
      describeRoute(
        answerDescription(
          'A signature request’s completion certificate',
          200,
          certificateSchema,
          'The certificate, as a JSON download',
        ),
      ),
      access,
      async (c) => {
        const state = await loadSignatureRequest(c.var.deps, c.req.param('id'));
        if (!isSignatureRequest(state) || state.companyId !== c.var.caller.companyId) {
          throw notFound('Signature request');
        }
        if (state.status !== 'signed') throw notFound('Certificate');
        c.header(
          'Content-Disposition',
          `attachment; filename="signature-certificate-${state.requestId}.json"`,
        );
        return c.json(certificateOf(state), 200);
      },
    );
}

/** `/api/documents` and `/api/signature-requests` (react-admin lists with `Content-Range`). */
export const documentRoutes: Feature = (deps) =>
  createDocumentRoutes(logOnlyPushChannel(deps.logger));
