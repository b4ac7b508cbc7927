/**
 * Refuses the 1,000 most common passwords. The list comes from `@zxcvbn-ts/language-common`
 * (its `passwords-common` dictionary is ranked by frequency, so its first 1,000 entries are the
 * 1,000 most common). Until that package is installed, a short built-in list of the very top
 * entries stands in and `commonPasswordSource()` says 'fallback'.
 */
const listPackage = '@zxcvbn-ts/language-common';
const listSize = 1_000;

/** Top entries of the same ranking that are long enough to pass the length rule. */
const fallbackList: readonly string[] = [
  'password',
  '12345678',
  '123456789',
  '1234567890',
  'baseball',
  'football',
  'qwertyuiop',
  'superman',
  '1qaz2wsx',
  'iloveyou',
  'sunshine',
  'trustno1',
  'princess',
  '11111111',
  'password1',
  'passw0rd',
  'qwerty123',
  'abcd1234',
  '1q2w3e4r',
  'starwars',
];

type Source = 'package' | 'fallback';
interface LoadedList {
  source: Source;
  passwords: ReadonlySet<string>;
}

let loaded: Promise<LoadedList> | undefined;

async function loadList(): Promise<LoadedList> {
  try {
    const module: { dictionary?: Record<string, unknown> } = await import(listPackage);
    const ranked = module.dictionary?.['passwords-common'];
    if (Array.isArray(ranked)) {
      return { source: 'package', passwords: new Set(ranked.slice(0, listSize).map(String)) };
    }
  } catch {
    // Not installed yet: the fallback below applies.
  }
  return { source: 'fallback', passwords: new Set(fallbackList) };
}

function commonPasswords(): Promise<LoadedList> {
  loaded ??= loadList();
  return loaded;
}

export const commonPasswordMessage =
  'This password is one of the 1,000 most common passwords: choose another';

/** Case-insensitive: 'Password' is as guessable as 'password'. */
export async function isCommonPassword(password: string): Promise<boolean> {
  const { passwords } = await commonPasswords();
  return passwords.has(password.toLowerCase());
}

export async function commonPasswordSource(): Promise<Source> {
  return (await commonPasswords()).source;
}
