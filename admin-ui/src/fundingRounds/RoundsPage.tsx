import Add from '@mui/icons-material/Add';
import Rocket from '@mui/icons-material/RocketLaunch';
import {
  Box,
  Button,
  Card,
  CardActionArea,
  CardContent,
  Chip,
  CircularProgress,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Title, useLocale, useTranslate } from 'react-admin';
import { Link, useNavigate } from 'react-router-dom';
import { useCanChangeCustomers } from '../customers/access';
import { formatPercent } from '../layout/formatNumber';
import { LoadFailed } from '../layout/LoadFailed';
import { isolatedCents } from '../payments/money';
import { callApi } from '../session/http';
import { RoundDialog } from './RoundDialog';
import { roundPath } from './RoundLink';
import { type Round, statusColor } from './types';

/** A round's progress: raised of the goal as a bar, with its figures in words. */
export function RoundProgress({ round }: { round: Round }) {
  const translate = useTranslate();
  const locale = useLocale();
  const t = (key: string, options?: object) => translate(`app.funding.${key}`, options);
  const percent = Math.min(100, round.percentageComplete);
  return (
    <Box>
      <LinearProgress
        variant="determinate"
        value={percent}
        aria-label={t('percent', { percent: formatPercent(round.percentageComplete, locale) })}
        sx={{ height: 8, borderRadius: 4, my: 1 }}
      />
      <Typography variant="body2">
        {t('raised', {
          raised: isolatedCents(round.amountRaisedCents, locale),
          goal: isolatedCents(round.raiseAmountCents, locale),
        })}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('percent', { percent: formatPercent(round.percentageComplete, locale) })}
        {round.status === 'open' || round.status === 'draft'
          ? ` · ${t('days_left', { smart_count: round.remainingDays })}`
          : ''}
      </Typography>
    </Box>
  );
}

/** `/fundingrounds`: every round as a card with its progress; a new round starts as a draft. */
export default function RoundsPage() {
  const translate = useTranslate();
  const locale = useLocale();
  const navigate = useNavigate();
  const t = (key: string, options?: object) => translate(`app.funding.${key}`, options);
  const rounds = useQuery({
    queryKey: ['funding-rounds'],
    queryFn: () => callApi<Round[]>('/funding-rounds?range=[0,99]&sort=["createdAt","DESC"]'),
  });
  const [creating, setCreating] = useState(false);
  const writes = useCanChangeCustomers();
  return (
    <Box component="section" aria-labelledby="rounds-title" sx={{ py: 2, minWidth: 0 }}>
      <Title title={translate('app.nav.rounds')} />
      <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography id="rounds-title" variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {t('title')}
        </Typography>
        {writes && (
          <Button variant="contained" startIcon={<Add />} onClick={() => setCreating(true)}>
            {t('new_round')}
          </Button>
        )}
      </Stack>
      {creating && (
        <RoundDialog
          onClose={() => setCreating(false)}
          onDone={(round) => navigate(roundPath(round))}
        />
      )}
      {rounds.isPending && (
        <Box sx={{ py: 6, textAlign: 'center' }}>
          <CircularProgress aria-label={t('loading')} />
        </Box>
      )}
      {rounds.isError && (
        <LoadFailed title={t('error')} error={rounds.error} onRetry={rounds.refetch} />
      )}
      {rounds.data?.length === 0 && (
        <Box sx={{ py: 8, textAlign: 'center' }}>
          <Rocket sx={{ fontSize: 72, color: 'text.disabled' }} />
          <Typography variant="h6" component="p">
            {t('empty')}
          </Typography>
          <Typography color="text.secondary">{t('empty_hint')}</Typography>
        </Box>
      )}
      {rounds.data && rounds.data.length > 0 && (
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: {
              xs: '1fr',
              sm: 'repeat(2, minmax(0, 1fr))',
              lg: 'repeat(3, minmax(0, 1fr))',
            },
          }}
        >
          {rounds.data.map((round) => (
            <Card key={round.id} variant="outlined">
              <CardActionArea component={Link} to={roundPath(round)} sx={{ height: '100%' }}>
                <CardContent>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
                    <Typography
                      variant="h6"
                      component="h2"
                      sx={{ flexGrow: 1, overflowWrap: 'anywhere' }}
                    >
                      {round.name}
                    </Typography>
                    <Chip
                      size="small"
                      color={statusColor[round.status]}
                      label={t(`status.${round.status}`)}
                    />
                  </Stack>
                  <Typography variant="body2" color="text.secondary">
                    {t('price', { price: isolatedCents(round.tokenPriceCents, locale) })}
                  </Typography>
                  <RoundProgress round={round} />
                </CardContent>
              </CardActionArea>
            </Card>
          ))}
        </Box>
      )}
    </Box>
  );
}
