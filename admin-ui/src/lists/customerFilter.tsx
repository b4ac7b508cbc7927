import { type AutocompleteInputProps, ReferenceInput } from 'react-admin';
import { TranslatedAutocompleteInput } from '../i18n/autocompleteTexts';
import { pickerQueryOptions } from '../live/liveResources';

export interface NamedCustomer {
  name?: string;
  lastName?: string;
  email: string;
}

/** How the portal names a customer: first and last name, or the email when there is none. */
export const customerDisplayName = (customer: NamedCustomer) =>
  [customer.name, customer.lastName].filter(Boolean).join(' ') || customer.email;

/**
 * A list's filter by customer (`customerId`), searching the customers as the user types. The
 * label goes on the reference too: the "Add filter" menu reads it there (it said "Customer" in
 * every language).
 */
export const customerFilter = (label: string) => (
  <ReferenceInput
    key="customerId"
    source="customerId"
    reference="customers"
    label={label}
    queryOptions={pickerQueryOptions}
  >
    <TranslatedAutocompleteInput
      label={label}
      optionText={customerDisplayName}
      filterToQuery={(q: string) => ({ q })}
      sx={{ minWidth: 220 }}
    />
  </ReferenceInput>
);

/**
 * A form's customer picker (`customerId`), by name, searching as the user types; live changes
 * leave its open choices alone. The rest of its props go to the AutocompleteInput.
 */
export function CustomerPicker(
  props: Omit<AutocompleteInputProps, 'source' | 'optionText' | 'filterToQuery'>,
) {
  return (
    <ReferenceInput
      source="customerId"
      reference="customers"
      sort={{ field: 'name', order: 'ASC' }}
      queryOptions={pickerQueryOptions}
    >
      <TranslatedAutocompleteInput
        optionText={customerDisplayName}
        filterToQuery={(q: string) => ({ q })}
        helperText={false}
        {...props}
      />
    </ReferenceInput>
  );
}
