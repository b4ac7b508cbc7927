import { Fragment, type ReactNode } from 'react';

/**
 * The parts that have something to show, " · " apart, each in a `<bdi>`: a Latin name beside an
 * Arabic description keeps its own direction, and the parts stay in reading order (without it an
 * Arabic page showed "Seed round · Ada Lovelace" for the customer, then the description).
 */
export function DotJoined({ parts }: { parts: readonly (ReactNode | null | undefined)[] }) {
  const shown = parts.filter((part) => part !== null && part !== undefined && part !== '');
  return (
    <>
      {shown.map((part, index) => (
        // The parts never reorder: their places are their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Fragment key={index}>
          {index > 0 && ' · '}
          <bdi>{part}</bdi>
        </Fragment>
      ))}
    </>
  );
}
