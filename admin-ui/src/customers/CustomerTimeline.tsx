import { Box, Card, CardContent, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { useLocaleState, useTranslate } from 'react-admin';
import { useReasonText } from '../audit/ReasonText';
import { RoundLink } from '../fundingRounds/RoundLink';
import { formatNumber, formatPercent } from '../layout/formatNumber';
import { WithIsolated } from '../layout/WithIsolated';
import type { HistoryEntry } from './customerApi';
import { investorStatusLabel, leadStatusLabel } from './statuses';

type Translate = ReturnType<typeof useTranslate>;

/** Fields whose value is a number to write in the reader's language; the ownership a percentage. */
const numberFields = new Set(['tokenBalance', 'tokenPrice']);

/** Fields that always read left to right (digits, addresses), even inside Arabic. */
const leftToRightFields = new Set(['phone', 'email', 'walletAddress']);

/**
 * A field's value as a reader sees it: translated statuses, yes/no, lists, numbers and
 * percentages in the reader's language ("1.500.000", "%81,06" in Turkish), "(empty)".
 */
export function displayValue(
  field: string,
  value: unknown,
  translate: Translate,
  locale: string,
): string {
  if (value === null || value === undefined || value === '') {
    return translate('app.customers.page.empty_value');
  }
  if (typeof value === 'number' && field === 'percentageOwned') return formatPercent(value, locale);
  if (typeof value === 'number' && numberFields.has(field)) return formatNumber(value, locale);
  if (field === 'investorStatus') return translate(investorStatusLabel(String(value)));
  if (field === 'leadStatus') return translate(leadStatusLabel(String(value)));
  if (typeof value === 'boolean') return translate(value ? 'app.profile.yes' : 'app.profile.no');
  if (Array.isArray(value)) {
    return value.length ? value.join(', ') : translate('app.customers.page.empty_value');
  }
  return String(value);
}

/**
 * A field's value isolated from the text around it: phone numbers, e-mails and wallet addresses
 * left to right (in Arabic "+90 532 123 45 67" keeps its order), anything a user typed by its own
 * first letter (a company's closing full stop stays at its end). Long values wrap anywhere.
 */
export function FieldValue({ field, value }: { field: string; value: unknown }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (field === 'roundId' && typeof value === 'string' && value)
    return <RoundLink roundId={value} />;
  const text = displayValue(field, value, translate, locale);
  const number = typeof value === 'number';
  return (
    <bdi
      dir={leftToRightFields.has(field) ? 'ltr' : undefined}
      style={number ? { whiteSpace: 'nowrap' } : { overflowWrap: 'anywhere' }}
    >
      {text}
    </bdi>
  );
}

function actorName(entry: HistoryEntry, translate: Translate) {
  return entry.actor.displayName ?? entry.actor.email ?? translate('app.customers.page.system');
}

function Entry({ entry }: { entry: HistoryEntry }) {
  const translate = useTranslate();
  const reasonText = useReasonText();
  const [locale] = useLocaleState();
  // Before → after reads the way the text runs: leftwards in Arabic.
  const arrow = useTheme().direction === 'rtl' ? ' ← ' : ' → ';
  const label = (field: string) => translate(`app.customers.fields.${field}`, { _: field });
  // An added customer's every field "changes" from nothing: the list would drown the event.
  const changes = entry.type === 'CustomerAdded' ? [] : entry.changes;
  return (
    <ListItem divider alignItems="flex-start" data-testid="history-entry">
      <ListItemText
        sx={{ overflowWrap: 'anywhere', minWidth: 0 }}
        primary={
          <>
            <Typography component="span" sx={{ fontWeight: 600 }}>
              {translate(`app.customers.events.${entry.type}`, { _: entry.type })}
            </Typography>{' '}
            <Typography component="span" color="text.secondary">
              {new Date(entry.at).toLocaleString(locale)} ·{' '}
              <WithIsolated
                message="app.customers.page.by"
                name="actor"
                value={actorName(entry, translate)}
              />
            </Typography>
          </>
        }
        secondary={
          <Box component="span" sx={{ display: 'flex', flexDirection: 'column' }}>
            {entry.reason && (
              <span>
                <WithIsolated
                  message="app.customers.page.why"
                  name="reason"
                  value={reasonText(entry.reason)}
                />
              </span>
            )}
            {entry.evidence && (
              <span>
                <WithIsolated
                  message="app.customers.page.evidence_line"
                  name="evidence"
                  value={entry.evidence}
                />
              </span>
            )}
            {changes.map((change) => (
              <span key={change.field}>
                {label(change.field)}: <FieldValue field={change.field} value={change.before} />
                {arrow}
                <FieldValue field={change.field} value={change.after} />
              </span>
            ))}
            {typeof entry.details.title === 'string' && (
              <span>
                <bdi>{entry.details.title}</bdi>: <bdi>{String(entry.details.message ?? '')}</bdi>
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
