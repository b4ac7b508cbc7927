import { Alert, Box, Button, Card, CardContent, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { DatePickerField } from '../dates/DatePickerField';
import { Money } from '../payments/Money';
import { callApi } from '../session/http';
import { useSessionUser } from '../session/sessionStore';

/** Roles the API answers `GET /api/balance?asOf=` for (an auditor's question). */
const asOfReaders = ['admin', 'compliance'];

interface Balance {
  currency: 'CAD';
  availableCents: number;
  asOf: string | null;
}

export const fetchBalance = (asOf?: Date) =>
  callApi<Balance>(asOf ? `/balance?asOf=${encodeURIComponent(asOf.toISOString())}` : '/balance');

/** The available balance at a chosen moment of the past, from the ledger (admin and compliance). */
export function BalanceAsOf() {
  const translate = useTranslate();
  const user = useSessionUser();
  const [moment, setMoment] = useState('');
  const [answer, setAnswer] = useState<Balance | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  if (!user?.role.some((role) => asOfReaders.includes(role))) return null;
  const show = async () => {
    setProblem(null);
    try {
      // The picked moment is in the reader's own time zone, as `new Date` reads it.
      setAnswer(await fetchBalance(new Date(moment)));
    } catch (error) {
      setAnswer(null);
      setProblem((error as Error).message);
    }
  };
  return (
    <Card variant="outlined" sx={{ mt: 3, width: 'fit-content', maxWidth: '100%' }}>
      <CardContent
        component="form"
        onSubmit={(event) => {
          event.preventDefault();
          if (moment) void show();
        }}
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 1.5,
          alignItems: 'center',
          '&:last-child': { pb: 2 },
        }}
      >
        <DatePickerField
          precision="minute"
          size="small"
          label={translate('app.transactions.as_of.label')}
          value={moment}
          onChange={setMoment}
          sx={{ width: 260, maxWidth: '100%' }}
        />
        <Button type="submit" variant="outlined" disabled={!moment}>
          {translate('app.transactions.as_of.show')}
        </Button>
        {answer && (
          <Box data-testid="balance-as-of">
            <Typography variant="body2" color="text.secondary" component="span">
              {translate('app.transactions.as_of.available')}{' '}
            </Typography>
            <Typography component="span" sx={{ fontWeight: 600 }}>
              <Money cents={answer.availableCents} />
            </Typography>
          </Box>
        )}
        {problem && <Alert severity="error">{problem}</Alert>}
      </CardContent>
    </Card>
  );
}
