import { Fragment } from 'react';

/**
 * An e-mail address, left to right even in Arabic, that wraps where a reader expects: after the
 * `@` and before a dot of the domain (`ayse@` / `example.com.tr`), not one letter from its end.
 */
export function EmailAddress({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  const domainParts = at < 0 ? [] : email.slice(at + 1).split('.');
  return (
    <bdi dir="ltr">
      {at < 0 ? email : email.slice(0, at + 1)}
      {domainParts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one address, never reordered
        <Fragment key={index}>
          <wbr />
          {index > 0 ? '.' : ''}
          {part}
        </Fragment>
      ))}
    </bdi>
  );
}
