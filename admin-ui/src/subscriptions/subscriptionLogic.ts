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
