import { customerProfile, investorStatus, leadStatus, transitionKinds } from '@issuer/events';
import { z } from 'zod';

/** A customer as every route answers it: the profile of the events plus what the streams keep. */
export const customerRecordSchema = z
  .strictObject({
    id: z.string(),
    ...customerProfile.shape,
    starred: z.boolean(),
    leadStatus,
    investorStatus,
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.int().meta({ description: 'The stream revision: send it back as `If-Match`' }),
  })
  .meta({ id: 'Customer' });

/** The single-customer answer adds the workflow's allowed next steps. */
export const customerDetailSchema = customerRecordSchema
  .extend({
    nextInvestorStatuses: z.array(
      z.strictObject({
        status: investorStatus,
        kind: z.enum(transitionKinds),
        reasonRequired: z.boolean(),
      }),
    ),
  })
  .meta({ id: 'CustomerDetail' });

/** `GET /customers/:id?asOf=`: the customer as they were then, replayed from their events. */
export const customerAsOfSchema = customerRecordSchema
  .extend({
    status: z.string(),
    removed: z.boolean().meta({ description: 'True when the customer was removed by then' }),
    asOf: z.string(),
  })
  .meta({ id: 'CustomerAsOf' });

export const customerReadSchema = z.union([customerDetailSchema, customerAsOfSchema]);

const readModelsField = z.enum(['up-to-date', 'catching-up']).meta({
  description: '`catching-up`: the next read may not show the change yet',
});

/** What the bulk calls (bulk-update, bulk-delete, star, unstar) answer: each id's outcome. */
export const bulkOutcomeSchema = z
  .strictObject({
    results: z.array(z.strictObject({ id: z.string(), status: z.enum(['done', 'not_found']) })),
    readModels: readModelsField,
  })
  .meta({ id: 'CustomerBulkOutcome' });

const rowOutcomes = (numbered: 'index' | 'line') => {
  const number = { [numbered]: z.int() } as Record<typeof numbered, z.ZodInt>;
  return z.array(
    z.discriminatedUnion('status', [
      z.strictObject({ ...number, status: z.literal('added'), id: z.string(), email: z.string() }),
      z.strictObject({
        ...number,
        status: z.literal('duplicate'),
        email: z.string(),
        message: z.string(),
      }),
      z.strictObject({
        ...number,
        status: z.literal('invalid'),
        message: z.string(),
        errors: z.record(z.string(), z.string()).meta({ description: 'Per-field messages' }),
      }),
    ]),
  );
};
const addedCounts = { added: z.int(), duplicates: z.int(), invalid: z.int() };

/** `POST /customers/bulk`: one outcome per row, by its index in `customers`. */
export const bulkAddAnswerSchema = z.strictObject({
  ...addedCounts,
  results: rowOutcomes('index'),
  readModels: readModelsField,
});

/** `POST /customers/import`: the columns as mapped, one outcome per CSV line. */
export const csvImportAnswerSchema = z.strictObject({
  ...addedCounts,
  columns: z.array(
    z.strictObject({
      column: z.string(),
      field: z.string().nullable().meta({ description: 'Null: the column is left out' }),
    }),
  ),
  results: rowOutcomes('line'),
  readModels: readModelsField,
});

/** `GET /customers/:id/history`: the customer's events, in order. */
export const customerHistorySchema = z.strictObject({
  id: z.string(),
  entries: z.array(
    z.strictObject({
      version: z.int(),
      type: z.string().meta({ description: 'The event type' }),
      at: z.string(),
      actor: z.strictObject({
        id: z.string().nullable(),
        email: z.string().nullable(),
        displayName: z.string().nullable(),
      }),
      reason: z.string().nullable(),
      evidence: z.string().nullable(),
      changes: z.array(
        z.strictObject({ field: z.string(), before: z.unknown(), after: z.unknown() }),
      ),
      details: z
        .record(z.string(), z.unknown())
        .meta({ description: 'What the event says beyond field changes' }),
    }),
  ),
});

/** `POST /customers/:id/notifications`: the recorded notification. */
export const notificationAnswerSchema = z.strictObject({
  notificationId: z.string(),
  title: z.string(),
  message: z.string(),
  customerId: z.string(),
  readModels: readModelsField,
});

/** The seed's contacts-app user (`GET /contacts-app/user`). */
export const contactsUserSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  avatar: z.string(),
  starred: z.array(z.string()).meta({ description: 'The starred customers’ ids' }),
  frequentContacts: z.array(z.string()),
  groups: z.array(z.string()),
});
