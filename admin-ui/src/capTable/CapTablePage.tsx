import Add from '@mui/icons-material/Add';
import Download from '@mui/icons-material/Download';
import {
  Box,
  Button,
  Card,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Title, useLocale, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { useCanChangeCustomers } from '../customers/access';
import { DatePickerField } from '../dates/DatePickerField';
import { LoadFailed } from '../layout/LoadFailed';
import { Percent } from '../layout/Percent';
import { apiUrl, callApi } from '../session/http';
import { readStored, storageKeys } from '../session/storage';
import { ShareClassDialog } from './ShareClassDialog';

interface ShareClass {
  id: string;
  name: string;
  kind: 'common' | 'preferred';
  authorized: number;
  issued: number;
}
interface Holder {
  customerId: string;
  name: string | null;
  email: string | null;
  shares: number;
  percentOwned: number;
  byClass: { shareClassId: string; shares: number }[];
}
interface CapTable {
  asOf: string;
  shareClasses: ShareClass[];
  holders: Holder[];
  totals: { authorized: number; issued: number; holders: number };
}

/** The end of the chosen day (UTC), so the day's own movements count; empty: now. */
const momentOf = (day: string) => (day ? `${day}T23:59:59.999Z` : '');

async function downloadCsv(day: string) {
  const token = readStored(storageKeys.token);
  const query = day ? `?asOf=${encodeURIComponent(momentOf(day))}` : '';
  const response = await fetch(`${apiUrl}/cap-table/export.csv${query}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `cap-table-${day || 'now'}.csv`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** `/captable?asOf=<day>`: holders × share classes as of the day (now without one). */
export default function CapTablePage() {
  const translate = useTranslate();
  const locale = useLocale();
  const [params, setParams] = useSearchParams();
  const day = params.get('asOf') ?? '';
  const table = useQuery({
    queryKey: ['cap-table', day],
    queryFn: () =>
      callApi<CapTable>(`/cap-table${day ? `?asOf=${encodeURIComponent(momentOf(day))}` : ''}`),
  });
  const number = (value: number) => value.toLocaleString(locale);
  const t = (key: string, options?: object) => translate(`app.captable.${key}`, options);
  const [creating, setCreating] = useState(false);
  // The cap table's writers are the customers' (the server's customerWriters).
  const writes = useCanChangeCustomers();
  return (
    <Box component="section" aria-labelledby="captable-title" sx={{ py: 2, minWidth: 0 }}>
      <Title title={translate('app.nav.captable')} />
      {/* The title and buttons keep their words on one line; the row wraps when it must. */}
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        useFlexGap
        sx={{
          mb: 2,
          alignItems: { sm: 'center' },
          flexWrap: 'wrap',
          '& button': { whiteSpace: 'nowrap' },
        }}
      >
        <Typography
          id="captable-title"
          variant="h5"
          component="h1"
          sx={{ flexGrow: 1, whiteSpace: { sm: 'nowrap' } }}
        >
          {t('title')}
        </Typography>
        <DatePickerField
          size="small"
          sx={{ width: { sm: 190 } }}
          label={t('as_of')}
          value={day}
          onChange={(picked) => setParams(picked ? { asOf: picked } : {}, { replace: true })}
        />
        <Button variant="outlined" startIcon={<Download />} onClick={() => downloadCsv(day)}>
          {t('export')}
        </Button>
        {writes && (
          <Button variant="contained" startIcon={<Add />} onClick={() => setCreating(true)}>
            {t('form.new')}
          </Button>
        )}
      </Stack>
      {creating && (
        <ShareClassDialog
          onClose={() => setCreating(false)}
          onDone={() => {
            setCreating(false);
            void table.refetch();
          }}
        />
      )}
      {table.isPending && (
        <Box sx={{ py: 6, textAlign: 'center' }}>
          <CircularProgress aria-label={t('loading')} />
        </Box>
      )}
      {table.isError && (
        <LoadFailed title={t('error')} error={table.error} onRetry={table.refetch} />
      )}
      {table.data && (
        <>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('totals', {
              issued: number(table.data.totals.issued),
              authorized: number(table.data.totals.authorized),
              holders: number(table.data.totals.holders),
            })}
          </Typography>
          {table.data.holders.length === 0 ? (
            <Typography sx={{ py: 6, textAlign: 'center' }} color="text.secondary">
              {t('empty')}
            </Typography>
          ) : (
            <Card sx={{ overflowX: 'auto', mb: 3 }} data-testid="captable-scroller">
              {/* With many classes the table scrolls (a phone): the holder stays in view. */}
              <Table size="small" aria-labelledby="captable-title" sx={holderColumnStays}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('holder')}</TableCell>
                    <TableCell align="right">{t('shares')}</TableCell>
                    <TableCell align="right">{t('percent')}</TableCell>
                    {table.data.shareClasses.map((shareClass) => (
                      <TableCell key={shareClass.id} align="right">
                        {shareClass.name}
                      </TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {table.data.holders.map((holder) => (
                    <TableRow key={holder.customerId}>
                      <TableCell>{holder.name ?? holder.email ?? holder.customerId}</TableCell>
                      <TableCell align="right">{number(holder.shares)}</TableCell>
                      <TableCell align="right">
                        <Percent value={holder.percentOwned} />
                      </TableCell>
                      {table.data.shareClasses.map((shareClass) => (
                        <TableCell key={shareClass.id} align="right">
                          {number(
                            holder.byClass.find((held) => held.shareClassId === shareClass.id)
                              ?.shares ?? 0,
                          )}
                        </TableCell>
                      ))}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Card>
          )}
          {table.data.shareClasses.length > 0 && (
            <>
              <Typography id="captable-classes" variant="h6" component="h2" sx={{ mb: 1 }}>
                {t('classes')}
              </Typography>
              <Card sx={{ overflowX: 'auto' }}>
                <Table size="small" aria-labelledby="captable-classes">
                  <TableHead>
                    <TableRow>
                      <TableCell>{t('class')}</TableCell>
                      <TableCell>{t('kind')}</TableCell>
                      <TableCell align="right">{t('authorized')}</TableCell>
                      <TableCell align="right">{t('issued')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {table.data.shareClasses.map((shareClass) => (
                      <TableRow key={shareClass.id}>
                        <TableCell>{shareClass.name}</TableCell>
                        <TableCell>{t(`kinds.${shareClass.kind}`)}</TableCell>
                        <TableCell align="right">{number(shareClass.authorized)}</TableCell>
                        <TableCell align="right">{number(shareClass.issued)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Card>
            </>
          )}
        </>
      )}
    </Box>
  );
}

const holderColumnStays = {
  '& th:first-of-type, & td:first-of-type': {
    position: 'sticky',
    insetInlineStart: 0,
    bgcolor: 'background.paper',
    zIndex: 1,
  },
} as const;
