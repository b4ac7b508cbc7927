import polyglotI18nProvider from 'ra-i18n-polyglot';
import { describe, expect, it } from 'vitest';
import arabic from './messages.ar';
import english from './messages.en';
import turkish from './messages.tr';

/** Every key path of a nested message object, e.g. `app.auth.login_title`. */
function keyPaths(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null
      ? keyPaths(value, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

function valueAt(messages: object, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], messages);
}

const englishKeys = keyPaths(english).sort();

describe.each([
  ['Turkish', turkish],
  ['Arabic', arabic],
])('the %s messages', (_language, messages) => {
  it('translate every English key, react-admin’s own included, and no other', () => {
    expect(keyPaths(messages).sort()).toEqual(englishKeys);
  });

  it('keep every placeholder of the English text', () => {
    for (const path of englishKeys) {
      // Each placeholder once: a language with more plural forms repeats them.
      const placeholders = (text: unknown) => [
        ...new Set(
          String(text)
            .match(/%\{\w+\}/g)
            ?.sort() ?? [],
        ),
      ];
      expect(placeholders(valueAt(messages, path)), path).toEqual(
        placeholders(valueAt(english, path)),
      );
    }
  });

  it('differ from English in the visible texts of the portal', () => {
    const same = keyPaths(messages.app as object).filter(
      (path) => valueAt(messages.app as object, path) === valueAt(english.app, path),
    );
    // Language names, status codes, the brand and words Turkish shares with English.
    const alike =
      /^(name|nav\.platform|language\..+|errors\.\w+_title|header\.terminal|audit\.resources\.(etransfers|plans)|transactions\.kind\.etransfer)$/;
    expect(same.filter((path) => !alike.test(path))).toEqual([]);
  });
});

describe('the English messages', () => {
  it('carry the seed’s texts word for word', () => {
    expect(english.app.validation).toMatchObject({
      // The seed's "Min character length is 4", with the limit of the field's shared rule (the
      // server's own message for a password is "Min character length is 8").
      min_length: 'Min character length is %{min}',
      email: 'Please enter a valid email',
      passwords_mismatch: 'Passwords do not match',
    });
    expect(english.app.session).toMatchObject({
      logging_in: 'Logging in with JWT',
      logged_in: 'Logged in with JWT',
      expired: 'access_token expired',
      invalid_token: 'Invalid access_token',
      failed: 'Failed to login with token.',
      logging_out: 'Logging out..',
    });
    expect(english.app.search.no_results).toBe('No results..');
  });
});

describe('plural forms', () => {
  const plural = (messages: object) =>
    keyPaths(messages)
      .filter((path) => String(valueAt(messages, path)).includes('||||'))
      .map((path) => [path, String(valueAt(messages, path)).split('||||').length] as const);

  it('give Arabic its six forms (none, one, two, a few, many, other) in every counted message', () => {
    const forms = plural(arabic);
    expect(forms.length).toBeGreaterThan(0);
    expect(forms.filter(([, count]) => count !== 6)).toEqual([]);
  });

  it('give English and Turkish their two forms', () => {
    expect(plural(english).filter(([, count]) => count !== 2)).toEqual([]);
    expect(plural(turkish).filter(([, count]) => count !== 2)).toEqual([]);
  });

  it.each([
    [1, 'تم تحديد عنصر واحد'],
    [2, 'تم تحديد عنصرين'],
    [3, 'تم تحديد 3 عناصر'],
    [11, 'تم تحديد 11 عنصرًا'],
    [100, 'تم تحديد 100 عنصر'],
  ])('say %i selected rows in Arabic as "%s"', (count, text) => {
    const i18n = polyglotI18nProvider(() => arabic, 'ar');
    expect(i18n.translate('ra.action.bulk_actions', { smart_count: count })).toBe(text);
  });
});
