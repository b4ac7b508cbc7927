import { Link } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { Money } from '../payments/Money';
import { type AuditEntry, recordPath } from './auditApi';

/** What an event means, in the reader's language; an unknown type shows as stored. */
export function EventName({ type }: { type: string }) {
  const translate = useTranslate();
  return <bdi>{translate(`app.audit.events.${type}`, { _: type })}</bdi>;
}

/** The event's name, then the amount it moved when it names one ("Payment captured · $12.50 CAD"). */
export function EventAndAmount({
  entry,
}: {
  entry: Pick<AuditEntry, 'eventType' | 'amountCents'>;
}) {
  return (
    <>
      <EventName type={entry.eventType} />
      {entry.amountCents !== null && (
        <>
          {' · '}
          <Money cents={entry.amountCents} />
        </>
      )}
    </>
  );
}

/** Who acted: the user's name, or "System" for the processor, a timer or a simulator. */
export function Actor({ entry }: { entry: Pick<AuditEntry, 'actorId' | 'actorName'> }) {
  const translate = useTranslate();
  if (entry.actorId === 'system') return <>{translate('app.audit.system')}</>;
  return <bdi>{entry.actorName ?? entry.actorId}</bdi>;
}

type RecordOf = { entry: Pick<AuditEntry, 'resource' | 'recordId'> };

/** The record an entry is about ("Payment · pay_68de"), as text. */
export function RecordName({ entry }: RecordOf) {
  const translate = useTranslate();
  const kind = translate(`app.audit.resources.${entry.resource}`, { _: entry.resource });
  return <bdi>{`${kind} · ${entry.recordId.slice(0, 8)}`}</bdi>;
}

/** The record's name, linked to its screen when it has one. */
export function RecordLink({ entry }: RecordOf) {
  const path = recordPath(entry);
  if (!path) return <RecordName entry={entry} />;
  return (
    <Link component={RouterLink} to={path} onClick={(event) => event.stopPropagation()}>
      <RecordName entry={entry} />
    </Link>
  );
}
