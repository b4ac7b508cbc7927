import { Box, Card, CardContent, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { useLocaleState, useTranslate } from 'react-admin';
import type { HistoryEntry } from './customerApi';
import { investorStatusLabel, leadStatusLabel } from './statuses';

type Translate = ReturnType<typeof useTranslate>;

/** A field's value as a reader sees it: translated statuses, yes/no, lists, "(empty)". */
export function displayValue(field: string, value: unknown, translate: Translate): string {
  if (value === null || value === undefined || value === '') {
    return translate('app.customers.page.empty_value');
  }
  if (field === 'investorStatus') return translate(investorStatusLabel(String(value)));
  if (field === 'leadStatus') return translate(leadStatusLabel(String(value)));
  if (typeof value === 'boolean') return translate(value ? 'app.profile.yes' : 'app.profile.no');
  if (Array.isArray(value)) {
    return value.length ? value.join(', ') : translate('app.customers.page.empty_value');
  }
  return String(value);
}

function actorName(entry: HistoryEntry, translate: Translate) {
  return entry.actor.displayName ?? entry.actor.email ?? translate('app.customers.page.system');
}

function Entry({ entry }: { entry: HistoryEntry }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  // Before → after reads the way the text runs: leftwards in Arabic.
  const arrow = useTheme().direction === 'rtl' ? ' ← ' : ' → ';
  const label = (field: string) => translate(`app.customers.fields.${field}`, { _: field });
  // An added customer's every field "changes" from nothing: the list would drown the event.
  const changes = entry.type === 'CustomerAdded' ? [] : entry.changes;
  return (
    <ListItem divider alignItems="flex-start" data-testid="history-entry">
      <ListItemText
        primary={
          <>
            <Typography component="span" sx={{ fontWeight: 600 }}>
              {translate(`app.customers.events.${entry.type}`, { _: entry.type })}
            </Typography>{' '}
            <Typography component="span" color="text.secondary">
              {new Date(entry.at).toLocaleString(locale)} ·{' '}
              {translate('app.customers.page.by', { actor: actorName(entry, translate) })}
            </Typography>
          </>
        }
        secondary={
          <Box component="span" sx={{ display: 'flex', flexDirection: 'column' }}>
            {entry.reason && (
              <span>{translate('app.customers.page.why', { reason: entry.reason })}</span>
            )}
            {entry.evidence && (
              <span>
                {translate('app.customers.page.evidence_line', { evidence: entry.evidence })}
              </span>
            )}
            {changes.map((change) => (
              <span key={change.field}>
                {label(change.field)}:{' '}
                <bdi>{displayValue(change.field, change.before, translate)}</bdi>
                {arrow}
                <bdi>{displayValue(change.field, change.after, translate)}</bdi>
              </span>
            ))}
            {typeof entry.details.title === 'string' && (
              <span>
                {entry.details.title}: {String(entry.details.message ?? '')}
              </span>
            )}
          </Box>
        }
      />
    </ListItem>
  );
}

/** Every change of the customer, oldest first: what, when, who, why, before → after. */
export function CustomerTimeline({ entries, upTo }: { entries: HistoryEntry[]; upTo?: string }) {
  const translate = useTranslate();
  return (
    <Card component="section" aria-labelledby="timeline-title">
      <CardContent>
        <Typography id="timeline-title" variant="h6" component="h2">
          {translate('app.customers.page.timeline')}
        </Typography>
        {upTo && (
          <Typography variant="body2" color="text.secondary" data-testid="history-cut">
            {upTo}
          </Typography>
        )}
        {entries.length === 0 ? (
          <Typography color="text.secondary">
            {translate('app.customers.page.no_history')}
          </Typography>
        ) : (
          <List dense aria-labelledby="timeline-title">
            {entries.map((entry) => (
              <Entry
                key={`${entry.version}-${String(entry.details.movementId ?? '')}`}
                entry={entry}
              />
            ))}
          </List>
        )}
      </CardContent>
    </Card>
  );
}
