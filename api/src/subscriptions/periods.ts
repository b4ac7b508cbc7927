import { createHash } from 'node:crypto';
import type { PlanInterval } from '@issuer/events';

const day = 86_400_000;

/**
 * `count` intervals after `anchor`, in UTC. Months keep the anchor's day of the month, or the
 * month's last day when it is shorter (Jan 31 → Feb 28 → Mar 31), as Stripe's billing anchor does.
 */
export function addIntervals(anchor: Date, interval: PlanInterval, count: number): Date {
  if (interval === 'week') return new Date(anchor.getTime() + count * 7 * day);
  const months = interval === 'month' ? count : count * 12;
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const result = new Date(anchor.getTime());
  result.setUTCFullYear(year, month, Math.min(anchor.getUTCDate(), lastDay));
  return result;
}

export const addDays = (from: Date, days: number) => new Date(from.getTime() + days * day);

/** `in_<subscription uuid>_<period index>`: the same period always has the same invoice id. */
export function invoiceIdOf(subscriptionId: string, periodIndex: number): string {
  return `in_${subscriptionId.replace(/^sub_/, '')}_${periodIndex}`;
}

/** A short human number: the subscription's first 8 hex digits and the period (`1A2B3C4D-0003`). */
export function invoiceNumberOf(subscriptionId: string, periodIndex: number): string {
  const short = subscriptionId.replace(/^sub_/, '').replace(/-/g, '').slice(0, 8).toUpperCase();
  return `${short}-${String(periodIndex + 1).padStart(4, '0')}`;
}

/** The e-transfer of one collection attempt: derived, so a replayed attempt finds the same one. */
export function collectionEtransferId(invoiceId: string, attempt: number): string {
  const hex = createHash('sha256').update(`invoice\n${invoiceId}\n${attempt}`).digest('hex');
  return `et_${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The off-session card payment of one collection attempt: derived, like the e-transfer's. */
export function collectionPaymentId(invoiceId: string, attempt: number): string {
  const hex = createHash('sha256').update(`invoice card\n${invoiceId}\n${attempt}`).digest('hex');
  return `pay_${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
