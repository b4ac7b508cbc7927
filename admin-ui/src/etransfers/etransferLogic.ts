import type { Etransfer, EtransferStatus } from './etransferApi';

/** `/etransfers/:view`: the views the API filters by (`filter.view`). */
export const etransferViews = ['all', 'requested', 'deposited', 'sent', 'unmatched'] as const;
export type EtransferView = (typeof etransferViews)[number];

export function isEtransferView(view: string | undefined): view is EtransferView {
  return (etransferViews as readonly string[]).includes(view ?? '');
}

export type ChipColor = 'default' | 'info' | 'success' | 'warning' | 'error';

export const statusColors: Record<EtransferStatus, ChipColor> = {
  requested: 'default',
  sent: 'info',
  deposited: 'success',
  declined: 'error',
  cancelled: 'default',
  expired: 'default',
  failed: 'error',
};

/** An incoming e-transfer no rule could give a customer: it waits for a user to match it. */
export const isUnmatched = (row: Pick<Etransfer, 'kind' | 'customerId'>) =>
  row.kind === 'incoming' && row.customerId === null;

/** A money request the customer has not answered yet: it may be cancelled. */
export const isOpenRequest = (row: Pick<Etransfer, 'kind' | 'status'>) =>
  row.kind === 'request' && (row.status === 'requested' || row.status === 'sent');

/** Only a request the provider has delivered can be paid or declined by the sandbox's customer. */
export const canSimulateAnswer = (row: Pick<Etransfer, 'kind' | 'status'>) =>
  row.kind === 'request' && row.status === 'sent';

/** Money that reached the company, or left it: a deposit, or a payout the recipient got. */
export const movedMoney = (row: Pick<Etransfer, 'kind' | 'status'>) =>
  row.status === 'deposited' || (row.kind === 'payout' && row.status === 'sent');

/** Ended with no money moved: declined, cancelled, expired or failed. */
export const endedWithoutMoney = (row: Pick<Etransfer, 'status'>) =>
  row.status === 'declined' ||
  row.status === 'cancelled' ||
  row.status === 'expired' ||
  row.status === 'failed';

/** Money in counts up, a payout counts down: the amount as it moves the balance. */
export function signedCents(row: Pick<Etransfer, 'kind' | 'amountCents'>): number {
  return row.kind === 'payout' ? -row.amountCents : row.amountCents;
}

/** A request's expiry as Interac and Zum Rails default it, and the longest the API takes. */
export const defaultExpiryDays = 30;
export const maxExpiryDays = 45;

const pad = (value: number) => String(value).padStart(2, '0');
const dayOf = (date: Date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** The day `days` after `now` in the reader's time zone, as a date input holds it. */
export function dayAfter(now: Date, days: number): string {
  return dayOf(new Date(now.getFullYear(), now.getMonth(), now.getDate() + days));
}

/**
 * The picked expiry day (`2026-12-24`) as the instant the request expires: the end of that day
 * in the reader's time zone. Null when it is no day, already past, or further than the API allows.
 */
export function expiryInstant(day: string, now: Date): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day.trim());
  if (!match) return null;
  const [year, month, date] = match.slice(1).map(Number) as [number, number, number];
  const end = new Date(year, month - 1, date, 23, 59, 59);
  if (end.getMonth() !== month - 1 || end.getDate() !== date) return null;
  const latest = now.getTime() + maxExpiryDays * 86_400_000;
  if (end.getTime() <= now.getTime() || end.getTime() > latest) return null;
  return end.toISOString();
}

/** The API's field names that differ from the forms' inputs: the amount is typed in dollars. */
const formInputs: Record<string, string> = { amountCents: 'amount', expiresAt: 'expiresOn' };

/**
 * The API's field messages keyed by the forms' inputs. Every name is renamed, none kept: an
 * error left on a name no input has would block every later submit of the form.
 */
export function onFormInputs(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, message]) => [formInputs[name] ?? name, message]),
  );
}
