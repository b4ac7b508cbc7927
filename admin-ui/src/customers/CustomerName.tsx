import { WithIsolated } from '../layout/WithIsolated';
import { customerDisplayName, type NamedCustomer } from '../lists/customerFilter';

/**
 * The customer as the rest of the UI names them (first and last name, the e-mail only without a
 * name) in a <bdi>: a Latin name inside an Arabic sentence keeps its own direction.
 */
export function CustomerName({ customer }: { customer: NamedCustomer }) {
  return <bdi>{customerDisplayName(customer)}</bdi>;
}

/** A translated title with the customer's name in it (`%{name}`), the name isolated. */
export function CustomerTitle({ message, customer }: { message: string; customer: NamedCustomer }) {
  return <WithIsolated message={message} name="name" value={customerDisplayName(customer)} />;
}
