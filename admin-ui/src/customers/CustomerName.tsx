import { useTranslate } from 'react-admin';
import { customerDisplayName } from '../lists/customerFilter';

type Named = Parameters<typeof customerDisplayName>[0];

/**
 * The customer as the rest of the UI names them (first and last name, the e-mail only without a
 * name) in a <bdi>: a Latin name inside an Arabic sentence keeps its own direction and leaves the
 * words around it in place.
 */
export function CustomerName({ customer }: { customer: Named }) {
  return <bdi>{customerDisplayName(customer)}</bdi>;
}

/** A translated title with the customer's name in it (`%{name}`), the name isolated as above. */
export function CustomerTitle({ message, customer }: { message: string; customer: Named }) {
  const translate = useTranslate();
  // The name goes in as an element, not text: the message is split where it would stand.
  const marker = '\u0000';
  const [before, after = ''] = translate(message, { name: marker }).split(marker);
  return (
    <>
      {before}
      <CustomerName customer={customer} />
      {after}
    </>
  );
}
