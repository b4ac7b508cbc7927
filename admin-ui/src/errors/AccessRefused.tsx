import Block from '@mui/icons-material/Block';
import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

export default function AccessRefused() {
  const translate = useTranslate();
  return (
    <Box role="alert" sx={{ p: 6, textAlign: 'center' }}>
      <Block color="error" sx={{ fontSize: 64 }} />
      <Typography variant="h5" component="h1" gutterBottom>
        {translate('ra.page.access_denied')}
      </Typography>
      <Typography color="text.secondary">{translate('app.errors.refused')}</Typography>
    </Box>
  );
}
