import { Box, Button, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';

/** A bare page (no shell) for the 404 and 500 routes. */
export function ErrorPage({
  code,
  message,
  detail,
}: {
  code: string;
  message: string;
  detail?: string;
}) {
  const translate = useTranslate();
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 2,
        p: 3,
        textAlign: 'center',
        bgcolor: 'background.default',
      }}
    >
      <Typography variant="h1" component="h1" sx={{ fontWeight: 800, color: 'text.secondary' }}>
        {translate(code)}
      </Typography>
      <Typography variant="h5" component="p">
        {translate(message)}
      </Typography>
      {detail && <Typography color="text.secondary">{translate(detail)}</Typography>}
      <Button component={Link} to="/" variant="contained">
        {translate('app.errors.home')}
      </Button>
    </Box>
  );
}
