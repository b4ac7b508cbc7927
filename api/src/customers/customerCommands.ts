import { randomUUID } from 'node:crypto';
import { notFound, streamCategories, streamName } from '@issuer/events';
import type { Context } from 'hono';
import {
  type AppEnv,
  decideAndAppend,
  ifMatchRevision,
  loadState,
  preconditionFailed,
} from '../http';
import { type CustomerCommand, customerDecider } from './businessLogic';
import type { CustomerDetails } from './customer';
import type { CustomerChangesInput, NewCustomerInput } from './customerFields';
import { profileOf } from './customerFields';
import { customerEmailDecider, customerEmailStream } from './emailReservation';
import { initialInvestorStatus } from './investorWorkflow';

/**
 * The write operations every customer route shares (REST, bulk, CSV import, the seed's calls).
 * Each resolves to the position of its last event (undefined when nothing changed); the route
 * waits for the read models once, after all of its writes.
 */

export const customerStream = (customerId: string) =>
  streamName(streamCategories.customer, customerId);

/** `honourIfMatch: false` for bulk commands: one request's If-Match cannot name many streams. */
interface WriteOptions {
  honourIfMatch?: boolean;
}

function onEmail(c: Context<AppEnv>, email: string, customerId: string, reserve: boolean) {
  const { companyId } = c.var.caller;
  return decideAndAppend(c, {
    streamId: customerEmailStream(companyId, email),
    decider: customerEmailDecider,
    command: {
      type: reserve ? 'ReserveCustomerEmail' : 'ReleaseCustomerEmail',
      data: { companyId, email, customerId },
    },
    ignoreIfMatch: true,
  });
}

/** Reserves the email in the company (409 when taken), then adds the customer. */
export async function addCustomer(
  c: Context<AppEnv>,
  input: NewCustomerInput,
): Promise<{ id: string; position: bigint | undefined }> {
  const customerId = randomUUID();
  await onEmail(c, input.email, customerId, true);
  try {
    const added = await decideAndAppend(c, {
      streamId: customerStream(customerId),
      decider: customerDecider,
      command: {
        type: 'AddCustomer',
        data: {
          companyId: c.var.caller.companyId,
          customerId,
          profile: profileOf(input),
          leadStatus: input.leadStatus ?? 'Cold',
          investorStatus: input.investorStatus ?? initialInvestorStatus,
          starred: input.starred ?? false,
          now: c.var.deps.clock(),
        },
      },
      expectedRevision: 'no_stream',
      ignoreIfMatch: true,
    });
    return { id: customerId, position: added.position };
  } catch (error) {
    await onEmail(c, input.email, customerId, false).catch(() => undefined);
    throw error;
  }
}

/** The caller's customer from the write side; 404 for a missing, removed or foreign one. */
async function ownCustomer(c: Context<AppEnv>, customerId: string) {
  const loaded = await loadState(c, customerStream(customerId), customerDecider);
  const { state } = loaded;
  if (state.status !== 'active' || state.companyId !== c.var.caller.companyId) {
    throw notFound('Customer');
  }
  return { state: state as CustomerDetails, revision: loaded.revision };
}

/** An edit; a new email is reserved first and the old one released after. */
export async function updateCustomer(
  c: Context<AppEnv>,
  customerId: string,
  input: CustomerChangesInput,
  { honourIfMatch = true }: WriteOptions = {},
): Promise<bigint | undefined> {
  const { state, revision } = await ownCustomer(c, customerId);
  const seen = honourIfMatch ? ifMatchRevision(c) : undefined;
  if (seen !== undefined && seen !== revision) throw preconditionFailed(revision);
  const { leadStatus, investorStatus, starred, ...changes } = input;
  const oldEmail = state.profile.email;
  const newEmail = changes.email !== undefined && changes.email !== oldEmail ? changes.email : '';
  if (newEmail) await onEmail(c, newEmail, customerId, true);
  let position: bigint | undefined;
  try {
    position = (
      await decideAndAppend(c, {
        streamId: customerStream(customerId),
        decider: customerDecider,
        command: {
          type: 'UpdateCustomer',
          data: { companyId: c.var.caller.companyId, changes, leadStatus, investorStatus, starred },
        },
        ignoreIfMatch: !honourIfMatch,
      })
    ).position;
  } catch (error) {
    if (newEmail) await onEmail(c, newEmail, customerId, false).catch(() => undefined);
    throw error;
  }
  if (!newEmail) return position;
  const released = await onEmail(c, oldEmail, customerId, false);
  return released.position ?? position;
}

/** Removes the customer and frees their email for a later add. */
export async function removeCustomer(
  c: Context<AppEnv>,
  customerId: string,
  reason: string | null,
  { honourIfMatch = true }: WriteOptions = {},
): Promise<bigint | undefined> {
  const removed = await runOnCustomer(
    c,
    customerId,
    { type: 'RemoveCustomer', data: { companyId: c.var.caller.companyId, reason } },
    { honourIfMatch },
  );
  const event = removed.events[0];
  if (event?.type !== 'CustomerRemoved') return removed.position;
  const released = await onEmail(c, event.data.email, customerId, false);
  return released.position ?? removed.position;
}

/** Any other command on one customer of the caller's company. */
export async function runOnCustomer(
  c: Context<AppEnv>,
  customerId: string,
  command: CustomerCommand,
  { honourIfMatch = true }: WriteOptions = {},
) {
  // A stale If-Match on another company's customer must still answer 404, not 412.
  if (honourIfMatch && ifMatchRevision(c) !== undefined) await ownCustomer(c, customerId);
  return decideAndAppend(c, {
    streamId: customerStream(customerId),
    decider: customerDecider,
    command,
    ignoreIfMatch: !honourIfMatch,
  });
}
