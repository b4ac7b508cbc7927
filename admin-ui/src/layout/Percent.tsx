import { useLocaleState } from 'react-admin';
import { formatPercent } from './formatNumber';

/**
 * A percentage given out of 100 as the reader's language writes it ("%81,06" in Turkish, "81.06%"
 * in English), isolated from the text around it and on one line: the sign never drops to its own.
 */
export function Percent({ value }: { value: number }) {
  const [locale] = useLocaleState();
  return (
    <bdi style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
      {formatPercent(value, locale)}
    </bdi>
  );
}
