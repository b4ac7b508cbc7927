import Settings from '@mui/icons-material/Settings';
import { IconButton, Tooltip } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslate } from 'react-admin';

// The drawer's radios and switches load on the first click, not with the first screen.
const SettingsDrawer = lazy(() => import('./SettingsDrawer'));

/** The toolbar's theme settings button and the drawer it opens. */
export function SettingsPanel() {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const label = translate('app.settings.open');
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          aria-label={label}
          onClick={() => {
            setOpened(true);
            setOpen(true);
          }}
        >
          <Settings />
        </IconButton>
      </Tooltip>
      {opened && (
        <Suspense fallback={null}>
          <SettingsDrawer open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
