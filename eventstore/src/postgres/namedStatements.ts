/**
 * Names each distinct statement text `<prefix>_<n>`, so that node-postgres prepares it once per
 * connection and PostgreSQL parses it (and may keep its plan) once instead of on every call.
 * For statements whose texts come from a small set: each text is kept for the process's life.
 */
export function namedStatements(prefix: string): (text: string) => { name: string; text: string } {
  const names = new Map<string, string>();
  return (text) => {
    let name = names.get(text);
    if (name === undefined) {
      name = `${prefix}_${names.size + 1}`;
      names.set(text, name);
    }
    return { name, text };
  };
}
