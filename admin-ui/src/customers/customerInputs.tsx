import { SelectInput, TextInput } from 'react-admin';
import { validateCustomerField, validateEmail } from '../auth/validators';
import { leadStatuses, leadStatusLabel } from './statuses';

const field = (name: string) => `app.customers.fields.${name}`;

/** Text as typed: react-admin would turn a cleared input into null, which the API refuses. */
const asTyped = (value: string) => value ?? '';
const tagsText = (tags: unknown) => (Array.isArray(tags) ? tags.join(', ') : (tags ?? ''));
const tagList = (text: string) =>
  (text ?? '')
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);

export function PlainTextInput({ source, multiline }: { source: string; multiline?: boolean }) {
  return (
    <TextInput
      source={source}
      label={field(source)}
      parse={asTyped}
      multiline={multiline}
      validate={validateCustomerField(source)}
      helperText={source === 'birthday' ? 'app.customers.fields.birthday_help' : false}
      // A phone number or a wallet address reads left to right in an Arabic form too.
      slotProps={leftToRight.has(source) ? { htmlInput: { dir: 'ltr' } } : undefined}
    />
  );
}

const leftToRight = new Set(['phone', 'walletAddress']);

export function EmailInput() {
  return (
    <TextInput
      source="email"
      label={field('email')}
      type="email"
      parse={asTyped}
      validate={validateEmail}
    />
  );
}

export function TagsInput() {
  return (
    <TextInput
      source="tags"
      label={field('tags')}
      format={tagsText}
      parse={tagList}
      helperText="app.customers.fields.tags_help"
    />
  );
}

export function LeadStatusInput() {
  return (
    <SelectInput
      source="leadStatus"
      label={field('leadStatus')}
      choices={leadStatuses.map((status) => ({ id: status, name: leadStatusLabel(status) }))}
      helperText={false}
    />
  );
}

/** The fields the edit dialog sends, and nothing the record carries beside them. */
export const editableFields = [
  'name',
  'lastName',
  'nickname',
  'email',
  'phone',
  'company',
  'jobTitle',
  'address',
  'birthday',
  'walletAddress',
  'tags',
  'notes',
  'leadStatus',
] as const;

export function pickEditable(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    editableFields.filter((name) => values[name] !== undefined).map((name) => [name, values[name]]),
  );
}

/** The customer form's inputs: the everyday ones, or (`complete`) every editable field. */
export function CustomerInputs({ complete = false }: { complete?: boolean }) {
  return (
    <>
      <PlainTextInput source="name" />
      <PlainTextInput source="lastName" />
      {complete && <PlainTextInput source="nickname" />}
      <EmailInput />
      <PlainTextInput source="phone" />
      <PlainTextInput source="company" />
      <PlainTextInput source="jobTitle" />
      {complete && (
        <>
          <PlainTextInput source="address" multiline />
          <PlainTextInput source="birthday" />
          <PlainTextInput source="walletAddress" />
        </>
      )}
      <TagsInput />
      <LeadStatusInput />
      {complete && <PlainTextInput source="notes" multiline />}
    </>
  );
}
