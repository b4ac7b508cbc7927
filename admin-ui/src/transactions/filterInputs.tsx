import { TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { useInput, useLocaleState, useTranslate } from 'react-admin';
import { DateInput } from '../dates/DateInput';
import { dateValueOf } from '../dates/DatePickerField';
import { centsToTyped, parseCents } from '../payments/money';

/** A picked day (`2026-11-24`) as the instant it starts in the reader's time zone. */
function dayStart(day: string, plusDays = 0): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day ?? '');
  if (!match) return undefined;
  const [, year, month, date] = match.map(Number) as [number, number, number, number];
  return new Date(year, month - 1, date + plusDays).toISOString();
}

function dayOf(iso: string | undefined, minusDays = 0): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  date.setDate(date.getDate() - minusDays);
  return dateValueOf(date);
}

/** Transactions from the start of the picked day (`createdFrom` is inclusive). */
export function FromDateInput({ source, label }: { source: string; label: string }) {
  return (
    <DateInput
      source={source}
      label={label}
      parse={(day: string) => dayStart(day)}
      format={(iso: string | undefined) => dayOf(iso)}
      helperText={false}
    />
  );
}

/** Transactions up to the end of the picked day: `createdTo` is exclusive, so the next day's start. */
export function ToDateInput({ source, label }: { source: string; label: string }) {
  return (
    <DateInput
      source={source}
      label={label}
      parse={(day: string) => dayStart(day, 1)}
      format={(iso: string | undefined) => dayOf(iso, 1)}
      helperText={false}
    />
  );
}

/**
 * Dollars typed into a filter, sent as cents once they read as an amount. The text stays as typed
 * (a parse/format pair would rewrite "12." while it is being typed).
 */
export function AmountFilterInput({ source, label }: { source: string; label: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { field } = useInput({ source });
  const cents = typeof field.value === 'number' ? field.value : undefined;
  const [text, setText] = useState(cents === undefined ? '' : centsToTyped(cents));
  useEffect(() => {
    // Cleared from outside (the filter's remove button): the text follows.
    if (cents === undefined) setText((typed) => (parseCents(typed, locale) === null ? typed : ''));
  }, [cents, locale]);
  const parsed = text.trim() === '' ? undefined : parseCents(text, locale);
  return (
    <TextField
      size="small"
      variant="filled"
      label={translate(label)}
      value={text}
      error={parsed === null}
      slotProps={{ htmlInput: { inputMode: 'decimal', dir: 'ltr' } }}
      sx={{ width: 150 }}
      onChange={(event) => {
        const typed = event.target.value;
        setText(typed);
        const value = typed.trim() === '' ? undefined : parseCents(typed, locale);
        if (value !== null) field.onChange(value);
      }}
    />
  );
}
