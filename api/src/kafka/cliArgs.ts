import { parseArgs } from 'node:util';

export const republishUsage =
  'Usage: npm run kafka:republish -- --from <position>   (re-sends the events after that global position; --from start re-sends all)';
export const tailUsage =
  'Usage: npm run kafka:tail -- <topic> [<topic> ...] [--group <group id>] [--from-beginning]';

/** `after`: undefined re-sends from the first event. */
export type RepublishArgs = { after: bigint | undefined } | { error: string };

export function parseRepublishArgs(argv: readonly string[]): RepublishArgs {
  const parsed = safely(() =>
    parseArgs({ args: [...argv], strict: true, options: { from: { type: 'string' } } }),
  );
  if ('error' in parsed) return parsed;
  const from = parsed.values.from;
  if (from === undefined) return { error: 'Missing --from <position>' };
  if (from === 'start') return { after: undefined };
  if (!/^\d{1,19}$/.test(from))
    return { error: `--from must be a position (digits) or start, not ${from}` };
  return { after: BigInt(from) };
}

export type TailArgs =
  | { topics: string[]; groupId: string | undefined; fromBeginning: boolean }
  | { error: string };

export function parseTailArgs(argv: readonly string[]): TailArgs {
  const parsed = safely(() =>
    parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: { group: { type: 'string' }, 'from-beginning': { type: 'boolean' } },
    }),
  );
  if ('error' in parsed) return parsed;
  if (parsed.positionals.length === 0) return { error: 'Name at least one topic' };
  return {
    topics: parsed.positionals,
    groupId: parsed.values.group,
    fromBeginning: parsed.values['from-beginning'] ?? false,
  };
}

function safely<T extends object>(parse: () => T): T | { error: string } {
  try {
    return parse();
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
