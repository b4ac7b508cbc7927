import { parseSystemReason } from '@issuer/events/systemReasons';
import { useTranslate } from 'react-admin';

/**
 * A reason as its reader should read it: one the system wrote ("Token order ord_…") in the
 * reader's language with the record's short id; one a person typed, as typed.
 */
export function useReasonText(): (reason: string) => string {
  const translate = useTranslate();
  return (reason) => {
    const system = parseSystemReason(reason);
    if (!system) return reason;
    return translate(`app.audit.system_reasons.${system.kind}`, {
      id: system.recordId.slice(0, 12),
    });
  };
}

export function ReasonText({ reason }: { reason: string | null }) {
  const reasonText = useReasonText();
  return reason ? <bdi>{reasonText(reason)}</bdi> : null;
}
