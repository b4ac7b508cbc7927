import { companyNameProblem, type FieldProblem } from '@issuer/events/rules';
import { Button, Card, CardActions, CardContent, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { problemMessage } from '../auth/validators';
import { formatCad } from '../layout/formatCad';
import { callApi, fieldErrors } from '../session/http';
import { refreshProfile } from '../session/refreshProfile';
import type { SessionUser } from '../session/sessionUser';
import { DetailList } from './DetailList';

function CompanyNameForm({ initial, onDone }: { initial: string; onDone: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string>();
  const translateProblem = (found: FieldProblem) => {
    const { message, args } = problemMessage(found);
    return translate(message, args);
  };
  const problem = companyNameProblem(name);
  const save = async () => {
    try {
      await callApi('/profile', { method: 'PATCH', body: { companyName: name.trim() } });
      await refreshProfile();
      notify('app.profile.saved', { type: 'success' });
      onDone();
    } catch (failure) {
      const message = fieldErrors(failure).companyName ?? (failure as Error).message;
      setError(message);
    }
  };
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <TextField
        label={translate('app.profile.company_name')}
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={problem !== undefined || error !== undefined}
        helperText={problem ? translateProblem(problem) : error}
        required
        fullWidth
        autoFocus
      />
      <CardActions sx={{ px: 0 }}>
        <Button type="submit" variant="contained" disabled={problem !== undefined}>
          {translate('app.profile.save')}
        </Button>
        <Button onClick={onDone}>{translate('app.profile.cancel')}</Button>
      </CardActions>
    </form>
  );
}

export function CompanyProfileCard({ user }: { user: SessionUser }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [editing, setEditing] = useState(false);
  const yesNo = (value: boolean) => translate(value ? 'app.profile.yes' : 'app.profile.no');
  return (
    <Card component="section" aria-labelledby="profile-title">
      <CardContent>
        <Typography id="profile-title" variant="h5" component="h1" gutterBottom>
          {translate('app.profile.title')}
        </Typography>
        {editing ? (
          <CompanyNameForm initial={user.data.companyName} onDone={() => setEditing(false)} />
        ) : (
          <>
            <DetailList
              rows={[
                ['app.profile.company_name', user.data.companyName],
                ['app.profile.email', user.data.email],
                [
                  'app.profile.balance',
                  <span dir="ltr" key="balance">
                    {formatCad(user.data.fiatBalanceCad, locale)}
                  </span>,
                ],
                ['app.profile.verified', yesNo(user.data.verified === 1)],
                ['app.profile.issuer', yesNo(user.isIssuer)],
              ]}
            />
            <CardActions sx={{ px: 0, pt: 2 }}>
              <Button variant="outlined" onClick={() => setEditing(true)}>
                {translate('app.profile.edit')}
              </Button>
            </CardActions>
          </>
        )}
      </CardContent>
    </Card>
  );
}
