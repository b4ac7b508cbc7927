import { useLocaleState } from 'react-admin';
import { formatCents } from './money';

/** An amount in the reader's language, kept left to right (and on one line) inside Arabic text. */
export function Money({ cents, signed = false }: { cents: number; signed?: boolean }) {
  const [locale] = useLocaleState();
  const text = formatCents(cents, locale);
  return (
    <bdi dir="ltr" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
      {signed && cents > 0 ? `+${text}` : text}
    </bdi>
  );
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const timeParts = new Set<Intl.DateTimeFormatPartTypes>(['hour', 'minute', 'dayPeriod']);

/** The date, the separator and the time, as the locale writes them together. */
function dateAndTime(date: Date, locale: string): [string, string, string] {
  let format = dateTimeFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    dateTimeFormats.set(locale, format);
  }
  const parts = format.formatToParts(date);
  const time = parts.findIndex((part) => timeParts.has(part.type));
  const text = (from: number, to?: number) =>
    parts
      .slice(from, to)
      .map((part) => part.value)
      .join('');
  if (time < 1 || parts[time - 1]?.type !== 'literal') return [text(0), '', ''];
  return [text(0, time - 1), text(time - 1, time), text(time)];
}

/**
 * A date and time in the reader's language. Each stays on one line, but a narrow table column
 * may put the time under the date.
 */
export function DateTime({ iso }: { iso: string | null | undefined }) {
  const [locale] = useLocaleState();
  if (!iso) return null;
  const [date, separator, time] = dateAndTime(new Date(iso), locale);
  return (
    <bdi>
      <span style={{ whiteSpace: 'nowrap' }}>{date}</span>
      {separator}
      <wbr />
      <span style={{ whiteSpace: 'nowrap' }}>{time}</span>
    </bdi>
  );
}
