import { randomUUID } from 'node:crypto';
import { type ExpectedRevision, streamCategories, streamName } from '@issuer/events';
import type { Context } from 'hono';
import { companyDecider } from '../companies/businessLogic';
import { symbolReservationDecider } from '../companies/symbolReservation';
import {
  type AppDependencies,
  type AppEnv,
  asList,
  type DecidedEvent,
  type Decider,
  decideAndAppend,
  foldStream,
  toNewEvents,
} from '../http';
import { type RegisterUser, userDecider } from './businessLogic';
import { emailReservationDecider } from './emailReservation';

/** Load, decide and append on one stream; resolves to the last appended position, if any. */
export interface StreamCommands {
  handle<State, Command, Event extends DecidedEvent>(
    streamId: string,
    decider: Decider<State, Command, Event>,
    command: Command,
    expectedRevision?: ExpectedRevision,
  ): Promise<bigint | undefined>;
}

/** Inside a request: the HTTP command pipeline, with the new account's tenant and actor. */
export function requestStreamCommands(
  c: Context<AppEnv>,
  ids: { companyId: string; userId: string },
): StreamCommands {
  return {
    async handle(streamId, decider, command, expectedRevision) {
      const outcome = await decideAndAppend(c, {
        streamId,
        decider,
        command,
        ...ids,
        ...(expectedRevision === undefined ? {} : { expectedRevision }),
      });
      return outcome.position;
    },
  };
}

/**
 * Outside a request (the operator CLI and start-up): the same fold, decide and append, without the
 * pipeline's retries. These run once, by one process, so a conflict is reported, not retried.
 */
export function directStreamCommands(
  deps: Pick<AppDependencies, 'store' | 'clock'>,
  ids: { companyId: string; userId: string },
): StreamCommands {
  return {
    async handle(streamId, decider, command, expectedRevision) {
      const { state, revision } = await foldStream(deps.store, streamId, decider);
      const events = asList(decider.decide(command, state));
      if (events.length === 0) return undefined;
      const correlationId = randomUUID();
      const metadata = {
        ...ids,
        correlationId,
        causationId: null,
        occurredAt: deps.clock().toISOString(),
        schemaVersion: 1,
      };
      const appended = await deps.store.appendToStream(streamId, toNewEvents(events, metadata), {
        expectedRevision: expectedRevision ?? revision ?? 'no_stream',
      });
      return appended.position;
    },
  };
}

/** Registration creates the company too; the operator joins the platform company instead. */
export type NewAccount = RegisterUser['data'] & { company?: { name: string; symbol: string } };

/**
 * Reserves the email (and the company symbol), then creates the company and the user. A step
 * that fails releases what the earlier steps reserved, so the same registration can be retried.
 * Resolves to the position of the last event written.
 */
export async function openAccount(commands: StreamCommands, account: NewAccount): Promise<bigint> {
  const { userId, companyId, email, company } = account;
  const emailStream = streamName(streamCategories.emailReservation, email);
  await commands.handle(emailStream, emailReservationDecider, {
    type: 'ReserveEmail',
    data: { email, userId, companyId },
  });
  const releaseEmail = () =>
    commands.handle(emailStream, emailReservationDecider, {
      type: 'ReleaseEmail',
      data: { email, userId },
    });
  if (!company) return withRelease(() => createUser(commands, account), [releaseEmail]);

  const symbolStream = streamName(streamCategories.symbolReservation, company.symbol);
  const releaseSymbol = () =>
    commands.handle(symbolStream, symbolReservationDecider, {
      type: 'ReleaseSymbol',
      data: { symbol: company.symbol, companyId },
    });
  await withRelease(
    () =>
      commands.handle(symbolStream, symbolReservationDecider, {
        type: 'ReserveSymbol',
        data: { symbol: company.symbol, companyId },
      }),
    [releaseEmail],
  );
  return withRelease(async () => {
    await commands.handle(
      streamName(streamCategories.company, companyId),
      companyDecider,
      {
        type: 'RegisterCompany',
        data: { companyId, ...company, registeredBy: userId, now: account.now },
      },
      'no_stream',
    );
    return createUser(commands, account);
  }, [releaseSymbol, releaseEmail]);
}

async function createUser(commands: StreamCommands, account: NewAccount): Promise<bigint> {
  const { userId, companyId, email, displayName, passwordHash, roles, now } = account;
  const position = await commands.handle(
    streamName(streamCategories.user, userId),
    userDecider,
    {
      type: 'RegisterUser',
      data: { userId, companyId, email, displayName, passwordHash, roles, now },
    },
    'no_stream',
  );
  if (position === undefined) throw new Error(`User ${userId} was not created`);
  return position;
}

/** Runs `step`; when it fails, runs the releases (best effort) and rethrows the step's error. */
async function withRelease<T>(
  step: () => Promise<T>,
  releases: readonly (() => Promise<unknown>)[],
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    for (const release of releases) await release().catch(() => undefined);
    throw error;
  }
}
