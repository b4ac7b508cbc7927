import { parseArgs } from 'node:util';

export const usage = 'Usage: npm run operator -- create --email <email> --password <password>';

export type OperatorArgs =
  | { command: 'create'; email: string; password: string }
  | { error: string };

export function parseOperatorArgs(argv: readonly string[]): OperatorArgs {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const [command, ...extra] = parsed.positionals;
  if (command !== 'create') return { error: `Unknown command: ${command ?? '(none)'}` };
  if (extra.length > 0) return { error: `Unexpected argument: ${extra[0]}` };
  const { email, password } = parsed.values;
  if (!email) return { error: 'Missing --email' };
  if (!password) return { error: 'Missing --password' };
  return { command, email, password };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: { email: { type: 'string' }, password: { type: 'string' } },
  });
}
