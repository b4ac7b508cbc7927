import { randomUUID } from 'node:crypto';
import { notFound, streamCategories, streamName } from '@issuer/events';
import { type CompanyProfile, getCompanyProfile, type TerminalRow } from '@issuer/projections';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { authenticate, requireRole } from '../auth/authenticate';
import { companyNameField } from '../auth/credentials';
import { hasControlCharacters, printableOnlyMessage } from '../auth/storableJson';
import {
  centsToCad,
  loadUserWithCompany,
  platformCompanyName,
  terminalSlots,
} from '../auth/userObject';
import { customerReaders } from '../customers/access';
import {
  type AppEnv,
  executeCommand,
  type Feature,
  idempotent,
  jsonBody,
  pathParams,
} from '../http';
import {
  answerDescription,
  createdDescription,
  describeRoute,
  listDescription,
} from '../http/openapiSpec';
import { type CompanyCommand, companyDecider } from './businessLogic';

const terminalName = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(60, 'Max character length is 60')
  .refine((name) => !hasControlCharacters(name), printableOnlyMessage);
const deviceId = z
  .string({ error: 'Device id is required' })
  .trim()
  .min(1, 'Device id is required')
  .max(100, 'Max character length is 100')
  .regex(/^[\w.:-]+$/, 'Use letters, digits and . : _ - only');

const registerTerminalSchema = z.strictObject({ name: terminalName, deviceId });
const renameTerminalSchema = z.strictObject({ name: terminalName });
const terminalPath = z.strictObject({ id: z.uuid('Unknown payment terminal') });
const profileChangeSchema = z.strictObject({ companyName: companyNameField });

/** The seed's profile (section 3), exactly these fields. */
const profileSchema = z
  .strictObject({
    avatar: z.string(),
    companyName: z.string(),
    fiatBalanceCad: z.number().meta({ description: 'The balance in dollars (the seed’s field)' }),
    email: z.string().meta({ description: 'The signed-in user’s' }),
    terminalDeviceId: z.string().meta({ description: 'The first terminal’s device id, or ""' }),
    terminalDeviceId2: z.string(),
    terminalDeviceId3: z.string(),
    providers: z.array(z.string()),
    verified: z.union([z.literal(0), z.literal(1)]),
    isIssuer: z.boolean(),
  })
  .meta({ id: 'Profile' });

export function profileAbout(
  company: CompanyProfile | undefined,
  email: string,
): z.infer<typeof profileSchema> {
  return {
    avatar: company?.avatar ?? '',
    companyName: company?.name ?? platformCompanyName,
    fiatBalanceCad: centsToCad(company?.fiatBalanceCents ?? 0n),
    email,
    ...terminalSlots(company?.terminals.map((terminal) => terminal.deviceId) ?? []),
    providers: [] as string[],
    verified: company?.verified ? 1 : 0,
    isIssuer: company?.isIssuer ?? false,
  };
}

const terminalSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    deviceId: z.string(),
    slot: z.int().min(1).max(3),
  })
  .meta({ id: 'Terminal' });

const terminalView = (terminal: TerminalRow, index: number) => ({
  ...terminal,
  slot: index + 1,
});

async function companyOfCaller(c: Context<AppEnv>): Promise<CompanyProfile> {
  const company = await getCompanyProfile(c.var.deps.pool, c.var.caller.companyId);
  if (!company) throw notFound('Company');
  return company;
}

/** Runs a command on the caller's own company: the id comes from the token, never the request. */
function onOwnCompany(c: Context<AppEnv>, command: CompanyCommand) {
  return executeCommand(c, {
    streamId: streamName(streamCategories.company, c.var.caller.companyId),
    decider: companyDecider,
    command,
  });
}

function terminalOrNotFound(company: CompanyProfile, terminalId: string) {
  const index = company.terminals.findIndex((terminal) => terminal.id === terminalId);
  const terminal = company.terminals[index];
  if (!terminal) throw notFound('Payment terminal');
  return terminalView(terminal, index);
}

export const companyRoutes: Feature = () =>
  new Hono<AppEnv>()
    .get(
      '/profile/about',
      describeRoute(answerDescription('The company profile', 200, profileSchema)),
      authenticate,
      async (c) => {
        const { user, company } = await loadUserWithCompany(c, c.var.caller);
        return c.json(profileAbout(company, user.email), 200);
      },
    )
    .patch(
      '/profile',
      describeRoute(answerDescription('Rename the company', 200, profileSchema)),
      authenticate,
      requireRole('admin'),
      idempotent,
      jsonBody(profileChangeSchema),
      async (c) => {
        const { avatar } = await companyOfCaller(c);
        await onOwnCompany(c, {
          type: 'UpdateCompanyProfile',
          data: { name: c.req.valid('json').companyName, avatar },
        });
        const { user, company } = await loadUserWithCompany(c, c.var.caller);
        return c.json(profileAbout(company, user.email), 200);
      },
    )
    // Everyone who takes or reads payments sees the terminals; only an admin changes them.
    .use('/terminals/*', authenticate)
    .get(
      '/terminals',
      describeRoute(listDescription('List the payment terminals', terminalSchema)),
      requireRole(...customerReaders),
      async (c) => {
        const { terminals } = await companyOfCaller(c);
        const last = Math.max(terminals.length - 1, 0);
        c.header('Content-Range', `terminals 0-${last}/${terminals.length}`);
        return c.json(terminals.map(terminalView), 200);
      },
    )
    .post(
      '/terminals',
      describeRoute(createdDescription('Register a payment terminal', terminalSchema)),
      requireRole('admin'),
      idempotent,
      jsonBody(registerTerminalSchema),
      async (c) => {
        const terminalId = randomUUID();
        await onOwnCompany(c, {
          type: 'RegisterPaymentTerminal',
          data: { terminalId, ...c.req.valid('json') },
        });
        return c.json(terminalOrNotFound(await companyOfCaller(c), terminalId), 201);
      },
    )
    .patch(
      '/terminals/:id',
      describeRoute(answerDescription('Rename a payment terminal', 200, terminalSchema)),
      requireRole('admin'),
      idempotent,
      pathParams(terminalPath),
      jsonBody(renameTerminalSchema),
      async (c) => {
        const terminalId = c.req.valid('param').id;
        await onOwnCompany(c, {
          type: 'RenamePaymentTerminal',
          data: { terminalId, name: c.req.valid('json').name },
        });
        return c.json(terminalOrNotFound(await companyOfCaller(c), terminalId), 200);
      },
    )
    .delete(
      '/terminals/:id',
      describeRoute(
        answerDescription('Remove a payment terminal', 200, z.strictObject({ id: z.string() })),
      ),
      requireRole('admin'),
      idempotent,
      pathParams(terminalPath),
      async (c) => {
        const terminalId = c.req.valid('param').id;
        await onOwnCompany(c, { type: 'RemovePaymentTerminal', data: { terminalId } });
        return c.json({ id: terminalId }, 200);
      },
    );
