import { AutocompleteInput, ReferenceInput } from 'react-admin';
import { pickerQueryOptions } from '../live/liveResources';

/** What a customer picker shows: the name, or the email when there is none. */
export const customerChoiceText = (customer: { name?: string; lastName?: string; email: string }) =>
  [customer.name, customer.lastName].filter(Boolean).join(' ') || customer.email;

/** A list's filter by customer (`customerId`), searching the customers as the user types. */
export const customerFilter = (label: string) => (
  <ReferenceInput
    key="customerId"
    source="customerId"
    reference="customers"
    queryOptions={pickerQueryOptions}
  >
    <AutocompleteInput
      label={label}
      optionText={customerChoiceText}
      filterToQuery={(q: string) => ({ q })}
      sx={{ minWidth: 220 }}
    />
  </ReferenceInput>
);
