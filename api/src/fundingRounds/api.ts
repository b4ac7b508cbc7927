import { notFound } from '@issuer/events';
import { roundHandlePattern } from '@issuer/events/rules';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
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
import { origin } from '../payments/api';
import {
  idParam,
  isoTime,
  listWindow,
  maxPageRows,
  oneOrMany,
  rangeParam,
  setContentRange,
  sortParam,
} from '../transactions/listParams';
import { issuerAccessGuard } from './access';
import {
  allRounds,
  asSeedProduct,
  getRound,
  listRounds,
  roundResourceSchema,
  roundSortFields,
  seedProductSchema,
} from './queries';
import { type RoundStatus, type RoundTerms, roundStatuses } from './round';
import { changeRoundState, createRound, isRoundId, ownRound, updateRound } from './roundCommands';

export const maxRoundNameLength = 100;
export const maxRoundDescriptionLength = 5000;
/** Up to CAD 100 billion: exact in a JSON number and in bigint. */
export const maxRoundCents = 10_000_000_000_000;

const cents = (what: string) =>
  z
    .int({ error: `${what}: a whole number of cents` })
    .min(1, 'At least 1 cent')
    .max(maxRoundCents, `At most ${maxRoundCents} cents`);

const termsShape = {
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(maxRoundNameLength, `Max character length is ${maxRoundNameLength}`),
  handle: z
    .string({ error: 'Handle is required' })
    .trim()
    .toLowerCase()
    .max(100, 'Max character length is 100')
    .regex(roundHandlePattern, 'Lower-case letters, digits and single dashes, e.g. seed-2026'),
  shareClassId: z
    .string({ error: 'Choose a share class' })
    .trim()
    .min(1, 'Choose a share class')
    .max(100, 'Unknown share class'),
  tokenPriceCents: cents('Token price'),
  raiseAmountCents: cents('Raise amount'),
  minInvestmentCents: cents('Minimum investment').nullable().optional(),
  maxInvestmentCents: cents('Maximum investment').nullable().optional(),
  opensAt: isoTime,
  closesAt: isoTime,
  description: z
    .string({ error: 'Must be text' })
    .max(maxRoundDescriptionLength, `Max character length is ${maxRoundDescriptionLength}`)
    .optional(),
  images: z
    .array(z.url({ error: 'An image address (URL)' }).max(2000), { error: 'A list of image URLs' })
    .max(10, 'At most 10 images')
    .optional(),
};

export const roundSchema = z.strictObject(termsShape);
const roundPatchSchema = z.strictObject({
  ...termsShape,
  opensAt: isoTime.optional(),
  closesAt: isoTime.optional(),
  name: termsShape.name.optional(),
  handle: termsShape.handle.optional(),
  shareClassId: termsShape.shareClassId.optional(),
  tokenPriceCents: termsShape.tokenPriceCents.optional(),
  raiseAmountCents: termsShape.raiseAmountCents.optional(),
});

type RoundBody = z.infer<typeof roundSchema>;

function termsOf(body: RoundBody): RoundTerms {
  return {
    name: body.name,
    handle: body.handle,
    shareClassId: body.shareClassId,
    tokenPriceCents: body.tokenPriceCents,
    raiseAmountCents: body.raiseAmountCents,
    minInvestmentCents: body.minInvestmentCents ?? null,
    maxInvestmentCents: body.maxInvestmentCents ?? null,
    opensAt: body.opensAt.toISOString(),
    closesAt: body.closesAt.toISOString(),
    description: body.description?.trim() ?? '',
    images: body.images ?? [],
  };
}

const listSchema = z.strictObject({
  sort: sortParam(Object.keys(roundSortFields) as [keyof typeof roundSortFields]).optional(),
  range: rangeParam.optional(),
  filter: jsonEncoded(
    z.strictObject({
      id: z.array(idParam).max(maxPageRows).optional(),
      status: oneOrMany(z.enum(roundStatuses)).optional(),
      q: z.string().trim().max(100).optional(),
    }),
  ).optional(),
});

const access = issuerAccessGuard();

async function answerRound(c: Context<AppEnv>, roundId: string, position?: bigint) {
  await waitForReadModels(c, position);
  const found = isRoundId(roundId)
    ? await getRound(c.var.deps.pool, c.var.caller.companyId, roundId, c.var.deps.clock())
    : undefined;
  if (!found) throw notFound('Funding round');
  return found;
}

function stateRoute(type: 'OpenRound' | 'CloseRound' | 'CancelRound') {
  return async (c: Context<AppEnv>) => {
    const roundId = c.req.param('id') ?? '';
    const outcome = await changeRoundState(c.var.deps, { ...origin(c), roundId }, type);
    return c.json(await answerRound(c, roundId, outcome.position), 200);
  };
}

async function edit(c: Context<AppEnv>, roundId: string, body: Partial<RoundBody>) {
  const current = await ownRound(c.var.deps, c.var.caller.companyId, roundId);
  const merged: RoundBody = {
    ...current.terms,
    opensAt: new Date(current.terms.opensAt),
    closesAt: new Date(current.terms.closesAt),
    ...Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)),
  };
  const outcome = await updateRound(c.var.deps, {
    ...origin(c),
    roundId,
    terms: termsOf(merged),
  });
  return c.json(await answerRound(c, roundId, outcome.position), 200);
}

/**
 * `/api/funding-rounds` (a react-admin list), one round, create and edit while a draft, and
 * `/:id/open|close|cancel`; the seed's `/api/e-commerce-app/products` lists the same rounds.
 */
export const fundingRoundRoutes: Feature = () =>
  new Hono<AppEnv>()
    .get(
      '/funding-rounds',
      describeRoute(listDescription('List funding rounds', roundResourceSchema)),
      access,
      queryParams(listSchema),
      async (c) => {
        const query = c.req.valid('query');
        const window = listWindow(query, 'createdAt');
        const list = await listRounds(
          c.var.deps.pool,
          c.var.caller.companyId,
          window,
          {
            id: query.filter?.id,
            status: query.filter?.status as RoundStatus[] | undefined,
            q: query.filter?.q || undefined,
          },
          c.var.deps.clock(),
        );
        setContentRange(c, 'funding-rounds', window.range.start, list.rows.length, list.total);
        return c.json(list.rows, 200);
      },
    )
    .post(
      '/funding-rounds',
      describeRoute(createdDescription('Create a funding round (a draft)', roundResourceSchema)),
      access,
      idempotent,
      jsonBody(roundSchema),
      async (c) => {
        const { roundId, position } = await createRound(c.var.deps, {
          ...origin(c),
          terms: termsOf(c.req.valid('json')),
        });
        return c.json(await answerRound(c, roundId, position), 201);
      },
    )
    .get(
      '/funding-rounds/:id',
      describeRoute(answerDescription('One funding round', 200, roundResourceSchema)),
      access,
      async (c) => c.json(await answerRound(c, c.req.param('id')), 200),
    )
    .put(
      '/funding-rounds/:id',
      describeRoute(
        answerDescription('Change a draft funding round (every term)', 200, roundResourceSchema),
      ),
      access,
      idempotent,
      jsonBody(roundSchema),
      (c) => edit(c, c.req.param('id'), c.req.valid('json')),
    )
    .patch(
      '/funding-rounds/:id',
      describeRoute(
        answerDescription('Change some terms of a draft funding round', 200, roundResourceSchema),
      ),
      access,
      idempotent,
      jsonBody(roundPatchSchema),
      (c) => edit(c, c.req.param('id'), c.req.valid('json')),
    )
    .post(
      '/funding-rounds/:id/open',
      describeRoute(
        answerDescription('Open a draft funding round to orders', 200, roundResourceSchema),
      ),
      access,
      idempotent,
      stateRoute('OpenRound'),
    )
    .post(
      '/funding-rounds/:id/close',
      describeRoute(answerDescription('Close an open funding round', 200, roundResourceSchema)),
      access,
      idempotent,
      stateRoute('CloseRound'),
    )
    .post(
      '/funding-rounds/:id/cancel',
      describeRoute(
        answerDescription(
          'Cancel a funding round with no order outstanding',
          200,
          roundResourceSchema,
        ),
      ),
      access,
      idempotent,
      stateRoute('CancelRound'),
    )
    .get(
      '/e-commerce-app/products',
      describeRoute(
        answerDescription(
          "The seed's products list: every funding round as a product",
          200,
          z.array(seedProductSchema),
        ),
      ),
      access,
      async (c) => {
        const rounds = await allRounds(c.var.deps.pool, c.var.caller.companyId, c.var.deps.clock());
        return c.json(rounds.map(asSeedProduct), 200);
      },
    );
