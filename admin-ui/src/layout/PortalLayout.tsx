import { Box } from '@mui/material';
import { type ReactNode, Suspense } from 'react';
import { Loading } from 'react-admin';
import { LiveUpdates } from '../live/LiveUpdates';
import { layoutWidths } from '../theme/settings';
import { useSettings } from '../theme/settingsStore';
import { PortalSidebar } from './PortalSidebar';
import { PortalToolbar } from './PortalToolbar';
import { ScreenErrorBoundary } from './ScreenErrorBoundary';
import { TabTitle } from './TabTitle';

/**
 * The shell: sidebar (start or end side), toolbar and content, full width, boxed (1280 px) or
 * with the content in a 1120 px container.
 */
export function PortalLayout({ children }: { children: ReactNode }) {
  const { mode, navbar } = useSettings().layout.config;
  return (
    <Box
      sx={{ bgcolor: mode === 'boxed' ? 'action.hover' : 'background.default', minHeight: '100vh' }}
    >
      <Box
        data-testid="layout"
        data-layout-mode={mode}
        sx={{
          display: 'flex',
          flexDirection: navbar.position === 'right' ? 'row-reverse' : 'row',
          minHeight: '100vh',
          maxWidth: mode === 'boxed' ? layoutWidths.boxed : 'none',
          mx: 'auto',
          bgcolor: 'background.default',
          boxShadow: mode === 'boxed' ? 3 : 0,
        }}
      >
        <LiveUpdates />
        <TabTitle />
        <PortalSidebar />
        <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
          <PortalToolbar />
          <Box
            component="main"
            id="main-content"
            sx={{
              flex: 1,
              width: '100%',
              maxWidth: mode === 'container' ? layoutWidths.container : 'none',
              mx: 'auto',
              p: { xs: 2, md: 3 },
            }}
          >
            <ScreenErrorBoundary>
              <Suspense fallback={<Loading />}>{children}</Suspense>
            </ScreenErrorBoundary>
          </Box>
        </Box>
      </Box>
    </Box>
  );
}
