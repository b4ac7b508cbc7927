import { randomUUID } from 'node:crypto';
import { notFound, streamCategories, streamName } from '@issuer/events';
import { customerDecider } from '../customers/businessLogic';
import { customerStream } from '../customers/customerCommands';
import { type AppDependencies, foldStream } from '../http';
import { type CommandOrigin, runOnStream } from '../http/streamCommands';
import { type CapTableCommand, capTableDecider } from './businessLogic';
import type { ShareClassTerms } from './capTable';

/**
 * The cap table's write operations, for the routes and for processes that issue shares (a
 * funding round's order: pass an `issuanceId` derived from the causing event and `system` as
 * the actor, and a replay issues nothing twice). Every append carries the stream's expected
 * revision and is decided again on a concurrent change (runOnStream), so concurrent issuances
 * never pass `authorized` and a holder never sends more than they hold.
 */
export type CapTableDeps = Pick<AppDependencies, 'store' | 'clock'>;
type Actor = { companyId: string; actorId: string } & CommandOrigin;

export const capTableStream = (companyId: string) =>
  streamName(streamCategories.capTable, companyId);

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
export const isShareClassId = (id: string) => new RegExp(`^shc_${uuid}$`).test(id);

const originOf = (actor: Actor): CommandOrigin => ({
  ...actor,
  userId: actor.actorId === 'system' ? null : actor.actorId,
});

function runOnCapTable(deps: CapTableDeps, actor: Actor, command: CapTableCommand) {
  return runOnStream(
    deps,
    capTableStream(actor.companyId),
    capTableDecider,
    command,
    (state) => (state.status === 'open' ? state.companyId : undefined),
    originOf(actor),
  );
}

/** The holder must be a current customer of the company (404 otherwise, as for any other id). */
async function checkCustomer(deps: CapTableDeps, companyId: string, customerId: string) {
  const { state } = await foldStream(deps.store, customerStream(customerId), customerDecider);
  if (state.status !== 'active' || state.companyId !== companyId) throw notFound('Customer');
}

export async function createShareClass(deps: CapTableDeps, input: Actor & ShareClassTerms) {
  const shareClassId = `shc_${randomUUID()}`;
  const outcome = await runOnCapTable(deps, input, {
    type: 'CreateShareClass',
    data: { ...input, shareClassId, now: deps.clock() },
  });
  return { shareClassId, position: outcome.position };
}

export function updateShareClass(
  deps: CapTableDeps,
  input: Actor & ShareClassTerms & { shareClassId: string },
) {
  if (!isShareClassId(input.shareClassId)) throw notFound('Share class');
  return runOnCapTable(deps, input, {
    type: 'UpdateShareClass',
    data: { ...input, now: deps.clock() },
  });
}

export interface IssueInput extends Actor {
  issuanceId?: string;
  shareClassId: string;
  customerId: string;
  shares: number;
  date?: Date;
  reason: string;
}

export async function issueShares(deps: CapTableDeps, input: IssueInput) {
  await checkCustomer(deps, input.companyId, input.customerId);
  const issuanceId = input.issuanceId ?? `iss_${randomUUID()}`;
  const now = deps.clock();
  const outcome = await runOnCapTable(deps, input, {
    type: 'IssueShares',
    data: { ...input, issuanceId, date: input.date ?? now, now },
  });
  return { issuanceId, position: outcome.position };
}

export interface TransferInput extends Actor {
  shareClassId: string;
  fromCustomerId: string;
  toCustomerId: string;
  shares: number;
  date?: Date;
  reason: string;
}

export async function transferShares(deps: CapTableDeps, input: TransferInput) {
  await checkCustomer(deps, input.companyId, input.toCustomerId);
  const transferId = `trf_${randomUUID()}`;
  const now = deps.clock();
  const outcome = await runOnCapTable(deps, input, {
    type: 'TransferShares',
    data: { ...input, transferId, date: input.date ?? now, now },
  });
  return { transferId, position: outcome.position };
}
