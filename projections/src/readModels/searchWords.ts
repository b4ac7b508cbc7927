/**
 * The words of a search box, lower-cased as PostgreSQL's `lower()` lowers the stored text:
 * JavaScript lowers "İ" to "i" plus a combining dot, PostgreSQL to a plain "i".
 */
export const searchWords = (q: string | undefined) =>
  q?.replace(/İ/g, 'i').toLowerCase().split(/\s+/).filter(Boolean) ?? [];

/**
 * How a lower-cased name column holds a word: Turkish's dotted and dotless i count as one letter,
 * because `lower()` keeps "ı" and makes "I" an "i" ("Işık" is stored "işık", and "ışık" or "IŞIK"
 * typed must find it). A word with an i is matched by a regular expression, any other by the
 * cheaper `LIKE`; pg_trgm's indexes serve both.
 */
export function nameMatch(word: string): { operator: '~' | 'LIKE'; value: string } {
  if (!/[iı]/.test(word)) {
    return { operator: 'LIKE', value: likePattern(word) };
  }
  const pattern = word.replace(/[\\^$.*+?()[\]{}|]/g, (c) => `\\${c}`).replace(/[iı]/g, '[iı]');
  return { operator: '~', value: pattern };
}

export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
/** `LIKE` anywhere in the text, the word's own percent signs, underscores and backslashes as text. */
export const likePattern = (word: string) => `%${escapeLike(word)}%`;
