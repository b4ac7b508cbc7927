import { readStored, storageKeys } from '../session/storage';

export const locales = ['en', 'tr', 'ar'] as const;
export type PortalLocale = (typeof locales)[number];

const rightToLeft: ReadonlySet<PortalLocale> = new Set(['ar']);

export function isPortalLocale(value: unknown): value is PortalLocale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value);
}

export type Direction = 'ltr' | 'rtl';

export const directionOf = (locale: PortalLocale): Direction =>
  rightToLeft.has(locale) ? 'rtl' : 'ltr';

/** The stored choice, else the browser's language when it is one of ours, else English. */
export function initialLocale(): PortalLocale {
  const stored = readStored(storageKeys.locale);
  if (isPortalLocale(stored)) return stored;
  const browser = navigator.language.slice(0, 2);
  return isPortalLocale(browser) ? browser : 'en';
}
