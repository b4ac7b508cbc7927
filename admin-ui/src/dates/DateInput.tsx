import { FieldTitle, InputHelperText, useInput, type Validator } from 'react-admin';
import { DatePickerField, type DatePrecision, dateValueOf } from './DatePickerField';

const inputForms: Record<DatePrecision, RegExp> = {
  day: /^\d{4}-\d{2}-\d{2}$/,
  minute: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/,
  second: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/,
};

/** A stored value (a day, an ISO instant, a Date) as the picker's value in the reader's zone. */
function pickerValue(value: unknown, precision: DatePrecision): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string' && inputForms[precision].test(value)) return value;
  const date = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(date.getTime()) ? '' : dateValueOf(date, precision);
}

/** A picked day stays `2026-01-15`; a picked moment becomes the instant, as an ISO string. */
function storedValue(value: string, precision: DatePrecision): string | null {
  if (value === '') return null;
  return precision === 'day' ? value : new Date(value).toISOString();
}

export interface DateInputProps {
  source: string;
  label: string;
  precision?: DatePrecision;
  validate?: Validator | Validator[];
  /** A message key, or false for none (an error still shows). */
  helperText?: string | false;
  /** Overrides of the stored form, as react-admin inputs take them. */
  parse?: (value: string) => unknown;
  format?: (stored: string | undefined) => string;
}

/**
 * react-admin's date input, typed in the portal's language (see `DatePickerField`); it stands in
 * for react-admin's `DateInput` and `DateTimeInput` in forms and filters.
 */
export function DateInput({
  source,
  label,
  precision = 'day',
  helperText,
  ...props
}: DateInputProps) {
  const { field, fieldState, isRequired } = useInput({
    source,
    validate: props.validate,
    format: (stored: unknown) =>
      props.format ? props.format(stored as string | undefined) : pickerValue(stored, precision),
    parse: (value: string) => (props.parse ? props.parse(value) : storedValue(value, precision)),
  });
  const { error, invalid } = fieldState;
  return (
    <DatePickerField
      label={<FieldTitle label={label} source={source} isRequired={isRequired} />}
      value={typeof field.value === 'string' ? field.value : ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      name={field.name}
      precision={precision}
      size="small"
      error={invalid}
      helperText={
        helperText !== false || invalid ? (
          <InputHelperText error={error?.message} helperText={helperText || undefined} />
        ) : null
      }
    />
  );
}
