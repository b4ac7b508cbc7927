import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Loading, useLocaleState, useTranslate } from 'react-admin';
import type { CompanyRecord } from '../dataAccess/dataProvider';
import { type CompanyHistoryEntry, fetchCompanyHistory } from './companyApi';

const text = (key: string) => `app.companies.decisions.${key}`;

function Entry({ entry }: { entry: CompanyHistoryEntry }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const actor = entry.actor.email ?? translate(text('someone'));
  return (
    <ListItem divider data-testid="company-history-entry">
      <ListItemText
        primary={translate(text(`events.${entry.type}`), { _: entry.type })}
        secondary={
          <>
            {new Date(entry.at).toLocaleString(locale)} · {translate(text('by'), { actor })}
            {entry.reason && (
              <>
                <br />
                {translate(text('why'), { reason: entry.reason })}
              </>
            )}
          </>
        }
      />
    </ListItem>
  );
}

/** The company's verification, issuer status and suspension decisions, oldest first. */
export function CompanyHistoryDialog({
  company,
  onClose,
}: {
  company: CompanyRecord;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const titleId = useId();
  const history = useQuery({
    queryKey: ['companies', 'history', company.id],
    queryFn: () => fetchCompanyHistory(String(company.id)),
    retry: false,
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>
        {translate(text('history_title'), { name: company.name })}
      </DialogTitle>
      <DialogContent>
        {history.isPending && <Loading />}
        {history.error && <Alert severity="error">{history.error.message}</Alert>}
        {history.data?.entries.length === 0 && (
          <Alert severity="info">{translate(text('history_empty'))}</Alert>
        )}
        {history.data && history.data.entries.length > 0 && (
          <List dense>
            {history.data.entries.map((entry) => (
              <Entry key={entry.version} entry={entry} />
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate(text('close'))}</Button>
      </DialogActions>
    </Dialog>
  );
}
