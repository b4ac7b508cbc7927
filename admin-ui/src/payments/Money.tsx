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

/** A date and time in the reader's language. */
export function DateTime({ iso }: { iso: string | null | undefined }) {
  const [locale] = useLocaleState();
  if (!iso) return null;
  return (
    <bdi style={{ whiteSpace: 'nowrap' }}>
      {new Date(iso).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' })}
    </bdi>
  );
}
