import { useEffect } from 'react';
import { useTranslate } from 'react-admin';

/** The browser tab names the screen ("Companies · Issuer Portal") while it is open. */
export function useDocumentTitle(title: string) {
  const portal = useTranslate()('app.name');
  useEffect(() => {
    const before = document.title;
    document.title = `${title} · ${portal}`;
    return () => {
      document.title = before;
    };
  }, [title, portal]);
}
