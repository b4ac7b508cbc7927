const formats = new Map<string, Intl.NumberFormat>();

function formatFor(locale: string, key: string, options: Intl.NumberFormatOptions) {
  const id = `${locale}|${key}`;
  let format = formats.get(id);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    formats.set(id, format);
  }
  return format;
}

/** A count or amount with the locale's separators: `1,500,000` in English, `1.500.000` in Turkish. */
export function formatNumber(value: number, locale: string): string {
  return formatFor(locale, 'number', { maximumFractionDigits: 6 }).format(value);
}

/**
 * A percentage given out of 100 (`81.063554`) as the locale writes percentages, with at most two
 * decimals: `81.06%` in English, `%81,06` in Turkish. The sign never sits apart from its number.
 */
export function formatPercent(percent: number, locale: string): string {
  return formatFor(locale, 'percent', { style: 'percent', maximumFractionDigits: 2 }).format(
    percent / 100,
  );
}
