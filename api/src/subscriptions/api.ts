import { collectionMethods, finalFailureActions, notFound, planIntervals } from '@issuer/events';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { customerAccessGuard } from '../customers/access';
import {
  type AppEnv,
  type Feature,
  idempotent,
  jsonBody,
  jsonEncoded,
  queryParams,
  waitForReadModels,
} from '../http';
import {
  answerDescription,
  createdDescription,
  describeRoute,
  listDescription,
} from '../http/openapiSpec';
import { amountCents, origin } from '../payments/api';
import {
  idParam,
  listWindow,
  maxPageRows,
  oneOrMany,
  rangeParam,
  setContentRange,
  sortParam,
} from '../transactions/listParams';
import { maxPlanNameLength, maxTrialDays } from './plan';
import {
  getInvoice,
  getPlan,
  getSubscription,
  invoiceResourceSchema,
  invoiceSortFields,
  invoiceStatuses,
  listInvoices,
  listPlans,
  listSubscriptions,
  planResourceSchema,
  planSortFields,
  subscriptionDetailSchema,
  subscriptionResourceSchema,
  subscriptionSortFields,
  subscriptionStatuses,
  subscriptionViews,
} from './queries';
import {
  actOnSubscription,
  archivePlan,
  createPlan,
  isPlanId,
  isSubscriptionId,
  loadBillingSettings,
  type SubscriptionAction,
  subscribe,
  updateBillingSettings,
  updatePlan,
} from './subscriptionCommands';

const chosen = (what: string) =>
  z
    .string({ error: `Choose a ${what}` })
    .trim()
    .min(1, `Choose a ${what}`)
    .max(100, `Unknown ${what}`);

export const planSchema = z.strictObject({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(maxPlanNameLength, `Max character length is ${maxPlanNameLength}`),
  amountCents,
  interval: z.enum(planIntervals, { error: `One of ${planIntervals.join(', ')}` }),
  intervalCount: z.int({ error: 'A whole number' }).min(1, 'At least 1').optional(),
  trialDays: z
    .int({ error: 'A whole number of days' })
    .min(0, 'At least 0')
    .max(maxTrialDays, `At most ${maxTrialDays}`)
    .optional(),
});

export const subscribeSchema = z.strictObject({
  customerId: chosen('customer'),
  planId: chosen('plan'),
  collectionMethod: z
    .enum(collectionMethods, { error: `One of ${collectionMethods.join(', ')}` })
    .optional(),
  /** With `card`: which saved card; absent, the customer's newest. */
  paymentMethodId: chosen('saved card').nullable().optional(),
  startAt: z.iso
    .datetime({ offset: true, error: 'Must be a date and time (ISO 8601)' })
    .nullable()
    .optional(),
});

const cancelSchema = z.strictObject({
  atPeriodEnd: z.boolean({ error: 'true or false' }).optional(),
});
const changePlanSchema = z.strictObject({ planId: chosen('plan') });
const settingsSchema = z.strictObject({
  retryDays: z
    .array(z.int({ error: 'Whole numbers of days' }), { error: 'A list of days' })
    .max(8, 'At most 8'),
  afterFinalFailure: z.enum(finalFailureActions, {
    error: `One of ${finalFailureActions.join(', ')}`,
  }),
});

const fieldsOf = <Fields extends Record<string, string>>(fields: Fields) =>
  Object.keys(fields) as [keyof Fields & string, ...(keyof Fields & string)[]];

const planListSchema = z.strictObject({
  sort: sortParam(fieldsOf(planSortFields)).optional(),
  range: rangeParam.optional(),
  filter: jsonEncoded(
    z.strictObject({
      status: oneOrMany(z.enum(['active', 'archived'])).optional(),
      q: z.string().max(200, 'Max character length is 200').optional(),
      id: z.array(idParam).max(maxPageRows).optional(),
    }),
  ).optional(),
});
const subscriptionFilter = z.strictObject({
  view: z.enum(subscriptionViews).optional(),
  status: oneOrMany(z.enum(subscriptionStatuses)).optional(),
  customerId: idParam.optional(),
  planId: idParam.optional(),
  q: z.string().max(200, 'Max character length is 200').optional(),
  id: z.array(idParam).max(maxPageRows).optional(),
});
const subscriptionListSchema = z.strictObject({
  sort: sortParam(fieldsOf(subscriptionSortFields)).optional(),
  range: rangeParam.optional(),
  filter: jsonEncoded(subscriptionFilter).optional(),
});
const invoiceListSchema = z.strictObject({
  sort: sortParam(fieldsOf(invoiceSortFields)).optional(),
  range: rangeParam.optional(),
  filter: jsonEncoded(
    z.strictObject({
      status: oneOrMany(z.enum(invoiceStatuses)).optional(),
      subscriptionId: idParam.optional(),
      customerId: idParam.optional(),
      id: z.array(idParam).max(maxPageRows).optional(),
    }),
  ).optional(),
});

/** Admin, staff and user manage billing; compliance reads (as with payments and e-transfers). */
const access = customerAccessGuard();

async function answerPlan(c: Context<AppEnv>, planId: string, position?: bigint) {
  await waitForReadModels(c, position);
  const plan = isPlanId(planId)
    ? await getPlan(c.var.deps.pool, c.var.caller.companyId, planId)
    : undefined;
  if (!plan) throw notFound('Plan');
  return plan;
}

async function answerSubscription(c: Context<AppEnv>, id: string, position?: bigint) {
  await waitForReadModels(c, position);
  const found = isSubscriptionId(id)
    ? await getSubscription(c.var.deps.pool, c.var.caller.companyId, id)
    : undefined;
  if (!found) throw notFound('Subscription');
  return found;
}

async function act(c: Context<AppEnv>, action: SubscriptionAction) {
  const subscriptionId = c.req.param('id') ?? '';
  const outcome = await actOnSubscription(c.var.deps, { ...origin(c), subscriptionId, action });
  return c.json(await answerSubscription(c, subscriptionId, outcome.position), 200);
}

/**
 * `/api/plans`, `/api/subscriptions`, `/api/invoices` and `/api/billing/settings`: recurring
 * billing (react-admin lists with `Content-Range`, as `/api/transactions`).
 */
export const subscriptionRoutes: Feature = () =>
  new Hono<AppEnv>()
    .get(
      '/plans',
      describeRoute(listDescription('List plans', planResourceSchema)),
      access,
      queryParams(planListSchema),
      async (c) => {
        const query = c.req.valid('query');
        const window = listWindow(query, 'createdAt');
        const list = await listPlans(c.var.deps.pool, c.var.caller.companyId, {
          ...window,
          filter: query.filter ?? {},
        });
        setContentRange(c, 'plans', window.range.start, list.rows.length, list.total);
        return c.json(list.rows, 200);
      },
    )
    .post(
      '/plans',
      describeRoute(createdDescription('Create a plan', planResourceSchema)),
      access,
      idempotent,
      jsonBody(planSchema),
      async (c) => {
        const body = c.req.valid('json');
        const { planId, position } = await createPlan(c.var.deps, {
          ...origin(c),
          ...body,
          intervalCount: body.intervalCount ?? 1,
          trialDays: body.trialDays ?? 0,
        });
        return c.json(await answerPlan(c, planId, position), 201);
      },
    )
    .get(
      '/plans/:id',
      describeRoute(answerDescription('One plan', 200, planResourceSchema)),
      access,
      async (c) => c.json(await answerPlan(c, c.req.param('id')), 200),
    )
    .put(
      '/plans/:id',
      describeRoute(answerDescription('Change a plan', 200, planResourceSchema)),
      access,
      idempotent,
      jsonBody(planSchema),
      async (c) => {
        const body = c.req.valid('json');
        const planId = c.req.param('id');
        const outcome = await updatePlan(c.var.deps, {
          ...origin(c),
          ...body,
          planId,
          intervalCount: body.intervalCount ?? 1,
          trialDays: body.trialDays ?? 0,
        });
        return c.json(await answerPlan(c, planId, outcome.position), 200);
      },
    )
    .post(
      '/plans/:id/archive',
      describeRoute(answerDescription('Archive a plan', 200, planResourceSchema)),
      access,
      idempotent,
      async (c) => {
        const planId = c.req.param('id');
        const outcome = await archivePlan(c.var.deps, { ...origin(c), planId });
        return c.json(await answerPlan(c, planId, outcome.position), 200);
      },
    )
    .get(
      '/subscriptions',
      describeRoute(listDescription('List subscriptions', subscriptionResourceSchema)),
      access,
      queryParams(subscriptionListSchema),
      async (c) => {
        const query = c.req.valid('query');
        const window = listWindow(query, 'createdAt');
        const list = await listSubscriptions(c.var.deps.pool, c.var.caller.companyId, {
          ...window,
          filter: query.filter ?? {},
        });
        setContentRange(c, 'subscriptions', window.range.start, list.rows.length, list.total);
        return c.json(list.rows, 200);
      },
    )
    .post(
      '/subscriptions',
      describeRoute(createdDescription('Subscribe a customer to a plan', subscriptionDetailSchema)),
      access,
      idempotent,
      jsonBody(subscribeSchema),
      async (c) => {
        const body = c.req.valid('json');
        const { subscriptionId, position } = await subscribe(c.var.deps, {
          ...origin(c),
          customerId: body.customerId,
          planId: body.planId,
          collectionMethod: body.collectionMethod ?? 'etransfer',
          paymentMethodId: body.paymentMethodId ?? null,
          startAt: body.startAt ? new Date(body.startAt) : null,
        });
        return c.json(await answerSubscription(c, subscriptionId, position), 201);
      },
    )
    .get(
      '/subscriptions/:id',
      describeRoute(answerDescription('One subscription', 200, subscriptionDetailSchema)),
      access,
      async (c) => c.json(await answerSubscription(c, c.req.param('id')), 200),
    )
    .post(
      '/subscriptions/:id/pause',
      describeRoute(answerDescription('Pause a subscription', 200, subscriptionDetailSchema)),
      access,
      idempotent,
      (c) => act(c, { type: 'PauseSubscription' }),
    )
    .post(
      '/subscriptions/:id/resume',
      describeRoute(answerDescription('Resume a subscription', 200, subscriptionDetailSchema)),
      access,
      idempotent,
      (c) => act(c, { type: 'ResumeSubscription' }),
    )
    .post(
      '/subscriptions/:id/cancel',
      describeRoute(answerDescription('Cancel a subscription', 200, subscriptionDetailSchema)),
      access,
      idempotent,
      jsonBody(cancelSchema),
      (c) =>
        act(c, {
          type: 'CancelSubscription',
          atPeriodEnd: c.req.valid('json').atPeriodEnd ?? false,
        }),
    )
    .post(
      '/subscriptions/:id/change-plan',
      describeRoute(
        answerDescription('Move a subscription to another plan', 200, subscriptionDetailSchema),
      ),
      access,
      idempotent,
      jsonBody(changePlanSchema),
      (c) => act(c, { type: 'ChangePlan', planId: c.req.valid('json').planId }),
    )
    .get(
      '/invoices',
      describeRoute(listDescription('List invoices', invoiceResourceSchema)),
      access,
      queryParams(invoiceListSchema),
      async (c) => {
        const query = c.req.valid('query');
        const window = listWindow(query, 'issuedAt');
        const list = await listInvoices(c.var.deps.pool, c.var.caller.companyId, {
          ...window,
          filter: query.filter ?? {},
        });
        setContentRange(c, 'invoices', window.range.start, list.rows.length, list.total);
        return c.json(list.rows, 200);
      },
    )
    .get(
      '/invoices/:id',
      describeRoute(answerDescription('One invoice', 200, invoiceResourceSchema)),
      access,
      async (c) => {
        const invoice = await getInvoice(
          c.var.deps.pool,
          c.var.caller.companyId,
          c.req.param('id'),
        );
        if (!invoice) throw notFound('Invoice');
        return c.json(invoice, 200);
      },
    )
    .get(
      '/billing/settings',
      describeRoute(answerDescription('Billing settings', 200, settingsSchema)),
      access,
      async (c) => c.json(await loadBillingSettings(c.var.deps, c.var.caller.companyId), 200),
    )
    .put(
      '/billing/settings',
      describeRoute(answerDescription('Change the billing settings', 200, settingsSchema)),
      access,
      idempotent,
      jsonBody(settingsSchema),
      async (c) => {
        const body = c.req.valid('json');
        await updateBillingSettings(c.var.deps, { ...origin(c), ...body });
        return c.json(await loadBillingSettings(c.var.deps, c.var.caller.companyId), 200);
      },
    );

/** The seed client's `GET /api/contacts-app/subscriptions`: `id` is the view; the same read model. */
export const legacySubscriptionRoutes: Feature = () =>
  new Hono<AppEnv>().get(
    '/contacts-app/subscriptions',
    describeRoute(
      answerDescription(
        'Subscriptions by view (seed client)',
        200,
        z.array(subscriptionResourceSchema),
      ),
    ),
    access,
    queryParams(
      z.strictObject({
        id: z.enum(subscriptionViews).optional(),
        customerId: idParam.optional(),
        q: z.string().max(200).optional(),
        searchText: z.string().max(200).optional(),
      }),
    ),
    async (c) => {
      const { id, customerId, q, searchText } = c.req.valid('query');
      const search = q ?? searchText;
      const list = await listSubscriptions(c.var.deps.pool, c.var.caller.companyId, {
        sort: { field: 'createdAt', order: 'DESC' },
        range: { start: 0, end: maxPageRows - 1 },
        filter: {
          view: id ?? 'all',
          ...(customerId ? { customerId } : {}),
          ...(search ? { q: search } : {}),
        },
      });
      return c.json(list.rows, 200);
    },
  );
