import { Box, CircularProgress, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import { useLogout, useTranslate } from 'react-admin';

/** `/logout`: says 'Logging out..', revokes the token, forgets the session, then goes to `/`. */
export default function LogoutPage() {
  const translate = useTranslate();
  const logout = useLogout();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void logout({}, '/', false);
  }, [logout]);
  return (
    <Box
      role="status"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 2,
      }}
    >
      <CircularProgress aria-label={translate('app.session.logging_out')} />
      <Typography variant="h6">{translate('app.session.logging_out')}</Typography>
    </Box>
  );
}
