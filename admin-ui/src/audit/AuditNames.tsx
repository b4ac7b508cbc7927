import { Link } from '@mui/material';
import { type RaRecord, useGetManyAggregate, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import type { Customer } from '../customers/customerApi';
import type { DocumentRecord } from '../documents/documentApi';
import type { Etransfer } from '../etransfers/etransferApi';
import type { TokenOrder } from '../fundingRounds/types';
import { DotJoined } from '../layout/DotJoined';
import { customerDisplayName } from '../lists/customerFilter';
import { Money } from '../payments/Money';
import type { Payment } from '../payments/paymentApi';
import { useSessionUser } from '../session/sessionStore';
import type { Plan, Subscription } from '../subscriptions/subscriptionApi';
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
export function Actor({
  entry,
}: {
  entry: Pick<AuditEntry, 'actorId' | 'actorName' | 'actorIsOperator'>;
}) {
  const translate = useTranslate();
  if (entry.actorId === 'system') return <>{translate('app.audit.system')}</>;
  if (entry.actorIsOperator) return <>{translate('app.audit.operator')}</>;
  return <bdi>{entry.actorName ?? entry.actorId}</bdi>;
}

type RecordOf = { entry: Pick<AuditEntry, 'resource' | 'recordId' | 'actorId' | 'actorName'> };

interface RecordNamer {
  /** The API's list of such records, which getMany reads by id. */
  apiResource: string;
  /** The name's parts, each isolated for right-to-left text when shown: "Ada Lovelace", "Gold". */
  name: (record: RaRecord) => readonly (string | null | undefined)[];
}

type TokenOrderRecord = TokenOrder & RaRecord;

/** How the log names a record of each resource the API lists by id. */
const recordNamers: Record<string, RecordNamer> = {
  customers: { apiResource: 'customers', name: (r) => [customerDisplayName(r as Customer)] },
  payments: {
    apiResource: 'payments',
    name: (r) => [(r as Payment).customerName ?? (r as Payment).description],
  },
  etransfers: {
    apiResource: 'etransfers',
    name: (r) => [(r as Etransfer).customerName ?? (r as Etransfer).email],
  },
  subscriptions: {
    apiResource: 'subscriptions',
    name: (r) => [(r as Subscription).customerName, (r as Subscription).planName],
  },
  plans: { apiResource: 'plans', name: (r) => [(r as Plan).name] },
  document: { apiResource: 'documents', name: (r) => [(r as DocumentRecord).title] },
  tokenorder: {
    apiResource: 'token-orders',
    name: (r) => [(r as TokenOrderRecord).customerName, (r as TokenOrderRecord).roundName],
  },
};

/** Records of which a company has one: their kind alone names them. */
const singletons = new Set(['wallet', 'billing-settings']);

/**
 * The record's name as the reader knows it ("Ada Lovelace", "Gold plan"), looked up by id; rows
 * on one screen share one request per resource. Null until loaded, and when the record is gone
 * or the reader may not see it.
 */
function useRecordName({
  resource,
  recordId,
  actorId,
  actorName,
}: RecordOf['entry']): readonly (string | null | undefined)[] | null {
  const namer = recordNamers[resource];
  const company = useSessionUser()?.data.companyName;
  const { data } = useGetManyAggregate(
    namer?.apiResource ?? resource,
    { ids: [recordId] },
    { enabled: namer !== undefined, retry: false },
  );
  if (namer) {
    const parts = data?.[0] ? namer.name(data[0]).filter(Boolean) : [];
    return parts.length > 0 ? parts : null;
  }
  if (resource === 'company') return company ? [company] : null;
  if (resource === 'users' && recordId === actorId) return actorName ? [actorName] : null;
  return null;
}

/** The record an entry is about ("Customer · Ada Lovelace"; "Payment · pay_68de" until named). */
export function RecordName({ entry }: RecordOf) {
  const translate = useTranslate();
  const name = useRecordName(entry);
  const kind = translate(`app.audit.resources.${entry.resource}`, { _: entry.resource });
  if (singletons.has(entry.resource)) return <>{kind}</>;
  // The record isolated from what follows it, and each of its parts from the others: a name in
  // one script wrapping beside another keeps its separators in place.
  return (
    <bdi>
      <DotJoined parts={[kind, ...(name ?? [entry.recordId.slice(0, 8)])]} />
    </bdi>
  );
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
