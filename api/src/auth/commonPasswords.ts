import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The 1,000 most common passwords: the first 1,000 entries of zxcvbn-ts's `passwords-common`
 * dictionary, which is ranked by how often each password appears in leaked password lists.
 * This module is the seam: replace the source here and nothing else changes.
 */
const listSize = 1_000;
const commonPasswords: ReadonlySet<string> = new Set(
  dictionary['passwords-common'].slice(0, listSize),
);

export const commonPasswordMessage =
  'This password is one of the 1,000 most common passwords: choose another';

/** Case-insensitive: 'Password' is as guessable as 'password'. */
export function isCommonPassword(password: string): boolean {
  return commonPasswords.has(password.toLowerCase());
}
