import { storageKeys, writeStored } from '../session/storage';
import { directionOf, initialLocale, isPortalLocale, type PortalLocale } from './locales';

/**
 * The language outside react-admin: the theme's direction and the emotion cache sit above
 * <Admin>, so they follow this copy, which `LocaleSync` keeps equal to react-admin's locale.
 */
let locale: PortalLocale = initialLocale();
const listeners = new Set<() => void>();

export const currentLocale = () => locale;

export function subscribeToLocale(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Sets the document's language and direction and keeps the choice in local storage. */
export function setCurrentLocale(next: string): void {
  if (!isPortalLocale(next)) return;
  document.documentElement.lang = next;
  document.documentElement.dir = directionOf(next);
  writeStored(storageKeys.locale, next);
  if (next === locale) return;
  locale = next;
  for (const listener of listeners) listener();
}
