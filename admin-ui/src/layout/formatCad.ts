/**
 * `$1,234.50 CAD` in English; other locales keep their own separators and order, always with
 * the plain `$` sign (some locales would write `CA$` beside the code).
 */
export function formatCad(amount: number, locale: string): string {
  const parts = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'CAD',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).formatToParts(amount);
  const number = parts.map((part) => (part.type === 'currency' ? '$' : part.value)).join('');
  return `${number.trim()} CAD`;
}
