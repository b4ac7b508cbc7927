import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';

/**
 * A translated sentence with a user's text in it (`%{name}`), that text isolated in a `<bdi>`:
 * a Latin name inside an Arabic sentence keeps its own direction and leaves the words around it
 * in place. The message is split where the text would stand.
 */
export function WithIsolated({
  message,
  name,
  value,
}: {
  message: string;
  name: string;
  value: ReactNode;
}) {
  const translate = useTranslate();
  const marker = '\u{e000}';
  const [before = '', after = ''] = translate(message, { [name]: marker }).split(marker);
  return (
    <>
      {before}
      <bdi>{value}</bdi>
      {after}
    </>
  );
}
