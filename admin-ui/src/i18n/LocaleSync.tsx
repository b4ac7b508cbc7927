import { useEffect } from 'react';
import { useLocaleState } from 'react-admin';
import { loadMessages } from './i18nProvider';
import { setCurrentLocale } from './localeStore';
import { isPortalLocale } from './locales';

/**
 * Follows react-admin's locale into the page's language, direction and emotion cache, once the
 * language's messages and (for Arabic) the right-to-left style plugin have loaded: switching the
 * direction before the plugin is there rendered every style unflipped, and nothing redid them.
 */
export function LocaleSync() {
  const [locale] = useLocaleState();
  useEffect(() => {
    if (!isPortalLocale(locale)) return;
    let current = true;
    void loadMessages(locale).then(() => {
      if (current) setCurrentLocale(locale);
    });
    return () => {
      current = false;
    };
  }, [locale]);
  return null;
}
