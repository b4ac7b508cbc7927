/**
 * PostgreSQL's jsonb refuses the NUL character and very deep nesting. Client-shaped JSON (user
 * settings) is checked here first, so such a request is a 400 with a message, not a database
 * error.
 */
export const maxSettingsDepth = 32;

export function storableJsonProblem(value: unknown, depth = 0): string | undefined {
  if (depth > maxSettingsDepth) return `Nested more than ${maxSettingsDepth} levels deep`;
  if (typeof value === 'string')
    return value.includes('\u0000') ? 'Holds a NUL character' : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  const entries = Array.isArray(value)
    ? value.map((item) => ['', item] as const)
    : Object.entries(value);
  for (const [key, item] of entries) {
    if (key.includes('\u0000')) return 'Holds a NUL character';
    const problem = storableJsonProblem(item, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/** Names and labels are shown to people: no control characters (NUL, newlines, escapes). */
export const hasControlCharacters = (text: string) => /\p{Cc}/u.test(text);
export const printableOnlyMessage = 'Use printable characters only';
