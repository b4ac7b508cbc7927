import { useEffect } from 'react';
import { useLocaleState } from 'react-admin';
import { setCurrentLocale } from './localeStore';

export function LocaleSync() {
  const [locale] = useLocaleState();
  useEffect(() => setCurrentLocale(locale), [locale]);
  return null;
}
