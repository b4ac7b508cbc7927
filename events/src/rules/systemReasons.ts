/**
 * The reasons the system itself writes on what it changes (an investor's status, shares issued),
 * in one place: the server writes them, and the UI reads them back to say them in the reader's
 * language. People write sentences; one typed in exactly this form (the words, then one id) would
 * read as the system's.
 */
const formats = {
  tokenOrder: 'Token order',
  signatureRequest: 'Signature request',
} as const;

export type SystemReasonKind = keyof typeof formats;

export const systemReason = (kind: SystemReasonKind, recordId: string) =>
  `${formats[kind]} ${recordId}`;

export function parseSystemReason(
  reason: string,
): { kind: SystemReasonKind; recordId: string } | undefined {
  for (const [kind, prefix] of Object.entries(formats) as [SystemReasonKind, string][]) {
    const recordId = reason.startsWith(`${prefix} `) ? reason.slice(prefix.length + 1) : '';
    if (/^[\w-]+$/.test(recordId)) return { kind, recordId };
  }
  return undefined;
}
