import { Alert, Box } from '@mui/material';
import { useEffect } from 'react';
import { Title, useTranslate } from 'react-admin';
import { refreshProfile } from '../session/refreshProfile';
import { useSessionUser } from '../session/sessionStore';
import { CompanyProfileCard } from './CompanyProfileCard';
import { TerminalsCard } from './TerminalsCard';

/** `/profile`: the company profile and its payment terminals. */
export default function ProfilePage() {
  const translate = useTranslate();
  const user = useSessionUser();
  useEffect(() => {
    void refreshProfile().catch(() => undefined);
  }, []);
  if (!user) return null;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <Title title={translate('app.nav.profile')} />
      {user.data.verified !== 1 && (
        <Alert severity="info" role="status">
          {translate('app.profile.pending_verification')}
        </Alert>
      )}
      <CompanyProfileCard user={user} />
      <TerminalsCard />
    </Box>
  );
}
