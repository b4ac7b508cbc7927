import {
  type InvestorStatus,
  investorStatuses,
  type LeadStatus,
  leadStatuses,
} from '@issuer/events';
import { getUserWithCompany } from '@issuer/projections';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import {
  type AppEnv,
  type Feature,
  idempotent,
  jsonBody,
  queryParams,
  validationError,
  waitForReadModels,
} from '../http';
import { answerDescription, describeRoute } from '../http/openapiSpec';
import { customerAccess } from './access';
import { answerCustomer, customerList, removeMany, setStars } from './api';
import { maxBulkRows } from './bulkAdd';
import { addCustomer, removeCustomer, runOnCustomer, updateCustomer } from './customerCommands';
import { customerChangesSchema, customerIdSchema, newCustomerSchema } from './customerFields';
import { contactsUserSchema, customerDetailSchema, customerRecordSchema } from './responses';

/**
 * The seed client's contacts-app calls (seed §7), answered by the same commands and queries as
 * the REST resource. Route params become the filter: `id` = all | starred | frequent, or an
 * investor or lead status.
 */
const contactsQuerySchema = z.strictObject({
  id: z.string().max(100).optional(),
  q: z.string().max(200).optional(),
  searchText: z.string().max(200).optional(),
});
const contactIds = z.array(customerIdSchema).min(1).max(maxBulkRows);
/** The ids the call was given, as the seed client expects them back. */
const contactIdsAnswer = z.array(z.string()).meta({ description: 'The ids acted on' });
const contactBody = <Shape extends z.ZodRawShape>(shape: Shape) => jsonBody(z.strictObject(shape));

function filterOfRouteParams(query: z.infer<typeof contactsQuerySchema>) {
  const q = query.q ?? query.searchText;
  const base = q ? { q } : {};
  const list = query.id ?? 'all';
  if (list === 'all' || list === 'frequent') return base;
  if (list === 'starred') return { ...base, starred: true };
  if ((investorStatuses as readonly string[]).includes(list)) {
    return { ...base, investorStatus: [list as InvestorStatus] };
  }
  if ((leadStatuses as readonly string[]).includes(list)) {
    return { ...base, leadStatus: [list as LeadStatus] };
  }
  throw validationError(
    new z.ZodError([{ code: 'custom', path: ['id'], message: 'Unknown list', input: list }]),
  );
}

/** The seed sends the contact object whole; `id` and read-only fields are not input. */
function parsed<Schema extends z.ZodType>(schema: Schema, value: object): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

const withoutId = ({ id: _id, ...rest }: Record<string, unknown>) => rest;

async function contactsUser(c: Context<AppEnv>): Promise<z.infer<typeof contactsUserSchema>> {
  const { userId, companyId } = c.var.caller;
  const found = await getUserWithCompany(c.var.deps.pool, { userId, companyId });
  const starred = await customerList(c, {
    filter: { starred: true },
    range: [0, maxBulkRows - 1],
  });
  return {
    id: userId,
    name: found?.user.displayName ?? '',
    avatar: '',
    starred: starred.map((contact) => contact.id),
    frequentContacts: [] as string[],
    groups: [] as string[],
  };
}

export const legacyContactRoutes: Feature = () =>
  new Hono<AppEnv>()
    .use('/contacts-app/*', ...customerAccess)
    .get(
      '/contacts-app/contacts',
      describeRoute(
        answerDescription('Contacts by view (seed client)', 200, z.array(customerRecordSchema)),
      ),
      queryParams(contactsQuerySchema),
      async (c) =>
        c.json(
          await customerList(c, {
            filter: filterOfRouteParams(c.req.valid('query')),
            range: [0, maxBulkRows - 1],
          }),
          200,
        ),
    )
    .get(
      '/contacts-app/user',
      describeRoute(
        answerDescription('The contacts app’s user (seed client)', 200, contactsUserSchema),
      ),
      async (c) => c.json(await contactsUser(c), 200),
    )
    .post(
      '/contacts-app/add-contact',
      describeRoute(answerDescription('Add a contact (seed client)', 200, customerDetailSchema)),
      idempotent,
      contactBody({ newContact: z.record(z.string(), z.unknown()) }),
      async (c) => {
        const input = parsed(newCustomerSchema, withoutId(c.req.valid('json').newContact));
        const added = await addCustomer(c, input);
        return c.json(await answerCustomer(c, added.id, added.position), 200);
      },
    )
    .post(
      '/contacts-app/update-contact',
      describeRoute(answerDescription('Change a contact (seed client)', 200, customerDetailSchema)),
      idempotent,
      contactBody({ contact: z.looseObject({ id: customerIdSchema }) }),
      async (c) => {
        const { contact } = c.req.valid('json');
        const position = await updateCustomer(
          c,
          contact.id,
          parsed(customerChangesSchema, contact),
        );
        return c.json(await answerCustomer(c, contact.id, position), 200);
      },
    )
    .post(
      '/contacts-app/remove-contact',
      describeRoute(
        answerDescription(
          'Remove a contact (seed client)',
          200,
          z.string(),
          'The removed contact’s id',
        ),
      ),
      idempotent,
      contactBody({ contactId: customerIdSchema }),
      async (c) => {
        const { contactId } = c.req.valid('json');
        const position = await removeCustomer(c, contactId, null);
        await waitForReadModels(c, position);
        return c.json(contactId, 200);
      },
    )
    .post(
      '/contacts-app/remove-contacts',
      describeRoute(answerDescription('Remove contacts (seed client)', 200, contactIdsAnswer)),
      idempotent,
      contactBody({ contactIds }),
      async (c) => {
        const { contactIds: ids } = c.req.valid('json');
        await removeMany(c, ids, null);
        return c.json(ids, 200);
      },
    )
    .post(
      '/contacts-app/set-contacts-starred',
      describeRoute(answerDescription('Star contacts (seed client)', 200, contactIdsAnswer)),
      idempotent,
      contactBody({ contactIds }),
      async (c) => {
        const { contactIds: ids } = c.req.valid('json');
        await setStars(c, ids, true);
        return c.json(ids, 200);
      },
    )
    .post(
      '/contacts-app/set-contacts-unstarred',
      describeRoute(answerDescription('Unstar contacts (seed client)', 200, contactIdsAnswer)),
      idempotent,
      contactBody({ contactIds }),
      async (c) => {
        const { contactIds: ids } = c.req.valid('json');
        await setStars(c, ids, false);
        return c.json(ids, 200);
      },
    )
    .post(
      '/contacts-app/toggle-starred-contact',
      describeRoute(
        answerDescription('Toggle a contact’s star (seed client)', 200, customerDetailSchema),
      ),
      idempotent,
      contactBody({ contactId: customerIdSchema }),
      async (c) => {
        const { contactId } = c.req.valid('json');
        const outcome = await runOnCustomer(c, contactId, {
          type: 'ToggleCustomerStar',
          data: { companyId: c.var.caller.companyId },
        });
        return c.json(await answerCustomer(c, contactId, outcome.position), 200);
      },
    );
