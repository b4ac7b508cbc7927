/**
 * The start a typed day asks for: `null` to start now (empty, or today), the day's local midnight
 * for a later day, `undefined` for a day in the past or not a day at all.
 */
export function startInstant(day: string, now: Date): string | null | undefined {
  if (!day.trim()) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day.trim());
  if (!match) return undefined;
  const [year, month, date] = match.slice(1).map(Number) as [number, number, number];
  const start = new Date(year, month - 1, date);
  if (start.getMonth() !== month - 1 || start.getDate() !== date) return undefined;
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  if (start.getTime() < today.getTime()) return undefined;
  return start.getTime() === today.getTime() ? null : start.toISOString();
}

/** The server's rule for retry days: at most 8, whole, from 1 to 60, each after the one before. */
export const maxRetries = 8;
export const maxRetryDay = 60;

/** "1, 3, 5" as days, or undefined when they break the rule (empty: no retry). */
export function retryDaysOf(typed: string): number[] | undefined {
  const words = typed.split(/[\s,،]+/).filter(Boolean);
  if (words.length > maxRetries || words.some((word) => !/^\d+$/.test(word))) return undefined;
  const days = words.map(Number);
  const valid = days.every(
    (day, i) => day >= 1 && day <= maxRetryDay && (i === 0 || day > (days[i - 1] ?? 0)),
  );
  return valid ? days : undefined;
}
