import { conflict, type WalletEntrySource, type WalletEvent } from '@issuer/events';

/**
 * The company wallet: the write-side truth of the available balance, so that a payout decided on
 * the stream's revision can never overdraw it, however many are sent at once. `entryIds` holds
 * every money movement already recorded: a repeat (a replayed subscriber, a retried command)
 * changes nothing.
 */
export interface Wallet {
  balanceCents: number;
  entryIds: ReadonlySet<string>;
}

export const initialWallet = (): Wallet => ({ balanceCents: 0, entryIds: new Set() });

export function evolveWallet(state: Wallet, event: WalletEvent): Wallet {
  const sign = event.type === 'WalletCredited' ? 1 : -1;
  // The set is shared with the previous state: a fold only ever moves forward, and copying it
  // at every event would make loading a long wallet quadratic.
  (state.entryIds as Set<string>).add(event.data.entryId);
  return {
    balanceCents: state.balanceCents + sign * event.data.amountCents,
    entryIds: state.entryIds,
  };
}

interface Entry {
  companyId: string;
  entryId: string;
  source: WalletEntrySource;
  amountCents: number;
  now: Date;
}

export type CreditWallet = { type: 'CreditWallet'; data: Entry };
/**
 * `guarded`: refused when the balance is short (a payout). A refund is not guarded here: its own
 * rule (never above the capture) was decided on the payment's stream, so it is recorded as it is.
 */
export type DebitWallet = { type: 'DebitWallet'; data: Entry & { guarded: boolean } };
export type WalletCommand = CreditWallet | DebitWallet;

export const insufficientBalanceMessage = (availableCents: number) =>
  `The available balance (${availableCents} cents) does not cover this amount`;

export function decideWallet(command: WalletCommand, state: Wallet): WalletEvent[] {
  const { data } = command;
  if (state.entryIds.has(data.entryId)) return [];
  const entry = {
    companyId: data.companyId,
    entryId: data.entryId,
    source: data.source,
    amountCents: data.amountCents,
    recordedAt: data.now.toISOString(),
  };
  if (command.type === 'CreditWallet') return [{ type: 'WalletCredited', data: entry }];
  if (command.data.guarded && data.amountCents > state.balanceCents) {
    const message = insufficientBalanceMessage(Math.max(state.balanceCents, 0));
    throw conflict(message, { amountCents: message });
  }
  return [{ type: 'WalletDebited', data: entry }];
}

export const walletDecider = {
  initialState: initialWallet,
  evolve: evolveWallet,
  decide: decideWallet,
};
