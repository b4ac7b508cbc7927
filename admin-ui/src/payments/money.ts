import { formatCad } from '../layout/formatCad';

/** The API's limits for one payment or refund, in cents. */
export const minAmountCents = 1;
export const maxAmountCents = 99_999_999;

const arabicIndicDigits = /[٠-٩]/g;
const easternArabicDigits = /[۰-۹]/g;

/** Latin digits, '.' and ',' for what a keyboard in Arabic or Persian may type. */
function latinDigits(text: string): string {
  return text
    .replace(arabicIndicDigits, (digit) => String(digit.charCodeAt(0) - 0x0660))
    .replace(easternArabicDigits, (digit) => String(digit.charCodeAt(0) - 0x06f0))
    .replaceAll('٫', '.')
    .replaceAll('٬', ',');
}

/** The locale's thousands separator (',' in English, '.' in Turkish). */
function groupSeparator(locale: string): string {
  const part = new Intl.NumberFormat(locale, { numberingSystem: 'latn' })
    .formatToParts(12345)
    .find((candidate) => candidate.type === 'group');
  return latinDigits(part?.value ?? ',');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Dollars as typed ("12", "12.5", "12,50", "1,234.56" in English, "1.234,56" in Turkish) to integer
 * cents, by reading the digits as text: no floating point, so "0.29" is 29 cents, not 28.999….
 * One or two digits after '.' or ',' are cents; three are only accepted as thousands groups written
 * with the locale's separator. Anything else (letters, a minus sign, three decimals) is null.
 */
export function parseCents(typed: string, locale = 'en'): number | null {
  const text = latinDigits(typed)
    .replace(/[\s\u00a0\u202f]/g, '')
    .replace(/^\$|\$$|CAD$/gi, '');
  let whole: string;
  let fraction = '';
  const plain = /^(\d+)(?:[.,](\d{1,2}))?$/.exec(text);
  if (plain) {
    whole = plain[1] ?? '';
    fraction = plain[2] ?? '';
  } else {
    const group = groupSeparator(locale);
    const decimal = group === '.' ? ',' : '.';
    const grouped = new RegExp(
      `^(\\d{1,3}(?:${escapeRegExp(group)}\\d{3})+)(?:${escapeRegExp(decimal)}(\\d{1,2}))?$`,
    ).exec(text);
    if (!grouped) return null;
    whole = (grouped[1] ?? '').split(group).join('');
    fraction = grouped[2] ?? '';
  }
  const digits = `${whole.replace(/^0+(?=\d)/, '')}${fraction.padEnd(2, '0')}`;
  // More digits than any allowed amount: refused before Number could round it.
  if (digits.replace(/^0+/, '').length > 12) return null;
  return Number(digits);
}

/** Cents as the dollars a user would type back ("12.50"), for a field's starting value. */
export function centsToTyped(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const magnitude = Math.abs(cents);
  return `${sign}${Math.floor(magnitude / 100)}.${String(magnitude % 100).padStart(2, '0')}`;
}

/** `$12.50 CAD` per language, 2 decimals (cents / 100 is exact to the cent far beyond our limits). */
export function formatCents(cents: number, locale: string): string {
  return formatCad(cents / 100, locale);
}

/**
 * The formatted amount wrapped in Unicode's left-to-right isolate, for a translated sentence: in
 * Arabic "$12.50 CAD" stays in its own order instead of being reordered with the words around it.
 */
export function isolatedCents(cents: number, locale: string): string {
  return `\u2066${formatCents(cents, locale)}\u2069`;
}
