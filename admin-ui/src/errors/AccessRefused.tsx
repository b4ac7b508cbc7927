import Block from '@mui/icons-material/Block';
import HourglassTop from '@mui/icons-material/HourglassTop';
import { Box, Button, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { Refusal } from '../navigation/navigation';

/**
 * A page this account may not open, and why: a company awaiting verification (or issuer status)
 * is told so and sent to its profile, rather than left at a bare "Access denied".
 */
export default function AccessRefused({ reason = 'role' }: { reason?: Refusal }) {
  const translate = useTranslate();
  const waiting = reason !== 'role';
  const Icon = waiting ? HourglassTop : Block;
  return (
    <Box role="alert" sx={{ p: 6, textAlign: 'center' }}>
      <Icon color={waiting ? 'warning' : 'error'} sx={{ fontSize: 64 }} />
      <Typography variant="h5" component="h1" gutterBottom>
        {translate(waiting ? `app.errors.${reason}_title` : 'ra.page.access_denied')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {translate(waiting ? `app.errors.${reason}` : 'app.errors.refused')}
      </Typography>
      {waiting && (
        <Button component={Link} to="/profile" variant="contained">
          {translate('app.errors.open_profile')}
        </Button>
      )}
    </Box>
  );
}
