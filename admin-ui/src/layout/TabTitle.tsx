import { useEffect } from 'react';
import { useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { navigation } from '../navigation/navigation';

/** The navigation item whose screen `path` belongs to, by its first segment ("/fundingrounds/…"). */
function sectionTitle(path: string): string | undefined {
  const section = path.split('/')[1];
  return navigation
    .flatMap((group) => group.children)
    .find((item) => section && item.url.split('/')[1] === section)?.title;
}

/**
 * The browser tab names the open screen ("Ada Lovelace · Issuer Portal"): the app bar's title when
 * the screen sets one, else its navigation item's label, so tabs of the portal can be told apart.
 * A component of its own, so that following the location re-renders it alone, not the shell.
 */
export function TabTitle(): null {
  const translate = useTranslate();
  const { pathname } = useLocation();
  const portal = translate('app.name');
  const sectionKey = sectionTitle(pathname);
  const section = sectionKey ? translate(sectionKey) : '';
  useEffect(() => {
    const appBarTitle = document.getElementById('react-admin-title');
    const update = () => {
      const screen = appBarTitle?.textContent?.trim() || section;
      document.title = screen ? `${screen} · ${portal}` : portal;
    };
    update();
    const observer = new MutationObserver(update);
    if (appBarTitle)
      observer.observe(appBarTitle, { childList: true, subtree: true, characterData: true });
    return () => {
      observer.disconnect();
      // Signed out, the login page has no screen to name.
      document.title = portal;
    };
  }, [portal, section]);
  return null;
}
