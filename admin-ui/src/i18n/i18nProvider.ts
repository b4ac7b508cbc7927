import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider, TranslationMessages } from 'react-admin';
import { loadRightToLeftCache } from '../theme/directionCache';
import { directionOf, locales, type PortalLocale } from './locales';
import englishMessages from './messages.en';

/** Turkish and Arabic are loaded on first use, so English readers never download them. */
const loaders: Record<PortalLocale, () => Promise<TranslationMessages>> = {
  en: async () => englishMessages,
  tr: () => import('./messages.tr').then((module) => module.default),
  ar: () => import('./messages.ar').then((module) => module.default),
};

const loaded = new Map<string, TranslationMessages>([['en', englishMessages]]);

/** A language's messages and, for a right-to-left one, the styles' RTL flipping. */
export async function loadMessages(locale: PortalLocale): Promise<TranslationMessages> {
  const [messages] = await Promise.all([
    loaded.get(locale) ?? loaders[locale](),
    directionOf(locale) === 'rtl' ? loadRightToLeftCache() : undefined,
  ]);
  loaded.set(locale, messages);
  return messages;
}

const languageNames: Record<PortalLocale, string> = { en: 'English', tr: 'Türkçe', ar: 'العربية' };

let active: I18nProvider | undefined;

/** `initialLocale`'s messages must have been loaded (`loadMessages`) before. */
export function createI18nProvider(initialLocale: PortalLocale): I18nProvider {
  active = polyglotI18nProvider(
    (locale) => loaded.get(locale) ?? loadMessages(locale as PortalLocale),
    initialLocale,
    locales.map((locale) => ({ locale, name: languageNames[locale] })),
    { allowMissing: false },
  );
  return active;
}

/**
 * A message in the language now chosen, for code outside React (an error made where a call
 * failed, shown later as it is); in English before the app has started.
 */
export function translateNow(key: string, options: Record<string, string> = {}): string {
  if (active) return active.translate(key, options);
  const path = key.split('.');
  let message: unknown = englishMessages;
  for (const part of path) message = (message as Record<string, unknown> | undefined)?.[part];
  return typeof message === 'string' ? interpolate(message, options) : key;
}

/** `%{name}` placeholders filled from `options`, as polyglot fills them. */
export const interpolate = (message: string, options: Record<string, string>) =>
  message.replace(/%\{(\w+)\}/g, (whole, name: string) => options[name] ?? whole);

/** The language now chosen ('en' before the app has started). */
export const localeNow = (): string => active?.getLocale() ?? 'en';
