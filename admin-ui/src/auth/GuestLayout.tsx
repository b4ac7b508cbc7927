import { Box, Card, CardContent, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { LanguageMenu } from '../layout/LanguageMenu';
import { Logo } from '../layout/Logo';

/** The bare layout of the guest-only pages: no sidebar, toolbar or footer. */
export function GuestLayout({
  heading,
  intro,
  children,
}: {
  heading: string;
  intro: string;
  children: ReactNode;
}) {
  const translate = useTranslate();
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        p: 2,
        bgcolor: 'background.default',
      }}
    >
      <Card sx={{ width: '100%', maxWidth: 440 }} elevation={3}>
        <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
          <Box
            sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 2 }}
          >
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
              <Logo size={40} />
              <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
                {translate('app.name')}
              </Typography>
            </Box>
            <LanguageMenu />
          </Box>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }} gutterBottom>
            {translate(heading)}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {translate(intro)}
          </Typography>
          {children}
        </CardContent>
      </Card>
    </Box>
  );
}
