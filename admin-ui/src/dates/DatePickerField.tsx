import type { SxProps, Theme } from '@mui/material';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { format, isValid, parseISO } from 'date-fns';
import { ar, enUS, tr } from 'date-fns/locale';
import { type ReactNode, useState } from 'react';
import { useLocaleState } from 'react-admin';
import { isPortalLocale, type PortalLocale } from '../i18n/locales';
import { pickerTextsOf } from './pickerTexts';

/** Whose calendar conventions the field follows: the order of day and month, the 24-hour clock. */
const dateLocales = { en: enUS, tr, ar } as const;

export type DatePrecision = 'day' | 'minute' | 'second';

/** The value as a native date input holds it, in the reader's own time zone. */
const valueFormats: Record<DatePrecision, string> = {
  day: 'yyyy-MM-dd',
  minute: "yyyy-MM-dd'T'HH:mm",
  second: "yyyy-MM-dd'T'HH:mm:ss",
};

export const dateValueOf = (date: Date, precision: DatePrecision = 'day') =>
  format(date, valueFormats[precision]);

function dateOf(value: string): Date | null {
  if (!value) return null;
  const date = parseISO(value);
  return isValid(date) ? date : null;
}

/**
 * The field reports a date at every keystroke that makes one: typing 2026 gives the years 2, 20
 * and 202 first. Those are half-typed, not asked for (a cap table of the year 2 was fetched).
 */
const isWhole = (date: Date) => isValid(date) && date.getFullYear() >= 1000;

export interface DatePickerFieldProps {
  label: ReactNode;
  /** `2026-01-15`, `2026-01-15T14:05` or `2026-01-15T14:05:09` (see `precision`); '' when empty. */
  value: string;
  /** Called with a whole date in the same form, or '' while the field holds none (half typed). */
  onChange: (value: string) => void;
  precision?: DatePrecision;
  onBlur?: () => void;
  helperText?: ReactNode;
  error?: boolean;
  name?: string;
  size?: 'small' | 'medium';
  sx?: SxProps<Theme>;
}

/**
 * A date (and time) typed and shown the way the portal's language writes it: 15.01.2026 in
 * Turkish, 01/15/2026 in English. A native date input follows the browser's language instead, so a
 * Turkish reader on an English browser was asked for the month first.
 */
export function DatePickerField({ precision = 'day', ...props }: DatePickerFieldProps) {
  const [raLocale] = useLocaleState();
  const locale: PortalLocale = isPortalLocale(raLocale) ? raLocale : 'en';
  // The field shows what is typed, half a date included; the caller hears a whole date or ''. Fed
  // back as the field's value, the caller's '' would wipe the sections typed so far.
  // The caller may take a render or two to pass back what it heard (an address change does).
  const [shown, setShown] = useState(() => dateOf(props.value));
  const [reported, setReported] = useState(props.value);
  const [given, setGiven] = useState(props.value);
  if (props.value !== given) {
    setGiven(props.value);
    if (props.value !== reported) setShown(dateOf(props.value)); // changed from outside
  }
  const shared = {
    label: props.label,
    value: shown,
    onChange: (date: Date | null) => {
      setShown(date);
      const next = date !== null && isWhole(date) ? dateValueOf(date, precision) : '';
      if (next === reported) return;
      setReported(next);
      props.onChange(next);
    },
    slotProps: {
      textField: {
        // The look of react-admin's inputs beside it (its theme gives TextField, not this, 'filled').
        variant: 'filled' as const,
        name: props.name,
        size: props.size,
        error: props.error,
        helperText: props.helperText,
        onBlur: props.onBlur,
        sx: props.sx,
      },
    },
  };
  return (
    <LocalizationProvider
      dateAdapter={AdapterDateFns}
      adapterLocale={dateLocales[locale]}
      localeText={pickerTextsOf(locale)}
    >
      {precision === 'day' ? (
        <DatePicker {...shared} />
      ) : (
        <DateTimePicker
          {...shared}
          // On a phone its header (the date and the time with seconds, in large type) was wider
          // than the dialog and pushed the OK button off screen; the tabs and the field tell it.
          slotProps={{ ...shared.slotProps, toolbar: { hidden: true } }}
          views={
            precision === 'second'
              ? ['year', 'month', 'day', 'hours', 'minutes', 'seconds']
              : ['year', 'month', 'day', 'hours', 'minutes']
          }
        />
      )}
    </LocalizationProvider>
  );
}
