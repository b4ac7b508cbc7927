import Inbox from '@mui/icons-material/Inbox';
import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';

/** An honest empty state for a screen whose feature comes later: no made-up rows. */
export default function NotBuiltYet({ empty }: { empty: string }) {
  const translate = useTranslate();
  const { view } = useParams();
  return (
    <Box component="section" aria-labelledby="empty-title" sx={{ py: 8, textAlign: 'center' }}>
      <Inbox sx={{ fontSize: 72, color: 'text.disabled' }} />
      <Typography id="empty-title" variant="h5" component="h1" gutterBottom>
        {translate(empty)}
      </Typography>
      {view && view !== 'all' && (
        <Typography color="text.secondary">{translate('app.empty.view', { view })}</Typography>
      )}
      <Typography color="text.secondary">{translate('app.empty.later')}</Typography>
    </Box>
  );
}
