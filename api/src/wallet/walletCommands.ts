import {
  type EventStore,
  type RecordedEvent,
  streamCategories,
  streamName,
  type WalletEntrySource,
} from '@issuer/events';
import { foldStream } from '../http';
import { type CommandOrigin, runOnStream } from '../http/streamCommands';
import { type WalletCommand, walletDecider } from './businessLogic';

export const walletStream = (companyId: string) =>
  streamName(streamCategories.companyWallet, companyId);

type Deps = { store: EventStore; clock: () => Date };

export async function loadWallet(deps: Pick<Deps, 'store'>, companyId: string) {
  return (await foldStream(deps.store, walletStream(companyId), walletDecider)).state;
}

/** One credit or debit; a repeat of its entry id changes nothing. */
export function recordWalletEntry(deps: Deps, command: WalletCommand, origin: CommandOrigin = {}) {
  return runOnStream(
    deps,
    walletStream(command.data.companyId),
    walletDecider,
    command,
    () => command.data.companyId,
    origin,
  );
}

/**
 * Reserves a payout's amount: refused (409 naming amountCents) when the wallet does not hold it.
 * Decided on the wallet's revision and retried on a concurrent change, so two payouts sent at
 * once are decided one after the other and never overdraw.
 */
export function debitForPayout(
  deps: Deps,
  input: { companyId: string; etransferId: string; amountCents: number },
  origin: CommandOrigin = {},
) {
  return recordWalletEntry(
    deps,
    {
      type: 'DebitWallet',
      data: {
        companyId: input.companyId,
        entryId: input.etransferId,
        source: 'payout',
        amountCents: input.amountCents,
        now: deps.clock(),
        guarded: true,
      },
    },
    origin,
  );
}

/** Gives back a reservation whose payout was never recorded (see requestPayout). */
export function releasePayout(
  deps: Deps,
  input: { companyId: string; etransferId: string; amountCents: number },
) {
  return recordWalletEntry(
    deps,
    credit(
      deps,
      input.companyId,
      `${input.etransferId}:released`,
      'payout_failed',
      input.amountCents,
    ),
  );
}

function credit(
  deps: Deps,
  companyId: string,
  entryId: string,
  source: WalletEntrySource,
  amountCents: number,
): WalletCommand {
  return {
    type: 'CreditWallet',
    data: { companyId, entryId, source, amountCents, now: deps.clock() },
  };
}

/**
 * The wallet entry a recorded money event stands for, or undefined. The entry id is the
 * movement's own id, so a replay (or two recorders at once) records each movement once.
 * A payout's debit is not here: it is taken before the payout is recorded (debitForPayout).
 */
export function walletEntryOf(deps: Deps, event: RecordedEvent): WalletCommand | undefined {
  const data = event.data as Record<string, unknown> & { companyId: string; amountCents: number };
  switch (event.type) {
    case 'PaymentCaptured':
      return credit(deps, data.companyId, String(data.paymentId), 'payment', data.amountCents);
    case 'PaymentRefunded':
      return {
        type: 'DebitWallet',
        data: {
          companyId: data.companyId,
          entryId: String(data.refundId),
          source: 'refund',
          amountCents: data.amountCents,
          now: deps.clock(),
          guarded: false,
        },
      };
    case 'PaymentRefundFailed':
      // The processor refused the refund: the money never left, so its debit is given back.
      return credit(
        deps,
        data.companyId,
        `${String(data.refundId)}:failed`,
        'refund_failed',
        data.amountCents,
      );
    case 'EtransferDeposited':
    case 'IncomingEtransferReceived':
      return credit(deps, data.companyId, String(data.etransferId), 'etransfer', data.amountCents);
    case 'PayoutFailed':
      return credit(
        deps,
        data.companyId,
        `${String(data.etransferId)}:returned`,
        'payout_failed',
        data.amountCents,
      );
    default:
      return undefined;
  }
}

export const walletEventTypes = [
  'PaymentCaptured',
  'PaymentRefunded',
  'PaymentRefundFailed',
  'EtransferDeposited',
  'IncomingEtransferReceived',
  'PayoutFailed',
] as const;
