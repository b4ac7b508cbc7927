import MenuOpen from '@mui/icons-material/MenuOpen';
import PushPin from '@mui/icons-material/PushPinOutlined';
import { Box, Drawer, IconButton, Tooltip, useMediaQuery } from '@mui/material';
import { type Theme, useTheme } from '@mui/material/styles';
import { useEffect, useRef, useState } from 'react';
import { useSidebarState, useTranslate } from 'react-admin';
import { sidebarHoverDelayMs, sidebarWidths } from '../theme/settings';
import { saveSettings, useSettings } from '../theme/settingsStore';
import { NavigationMenu } from './NavigationMenu';
import { SidebarHeader } from './SidebarHeader';

function FoldButton() {
  const translate = useTranslate();
  const settings = useSettings();
  const folded = settings.layout.config.navbar.folded;
  const label = translate(folded ? 'app.nav.unfold' : 'app.nav.fold');
  const toggle = () => {
    const { config } = settings.layout;
    void saveSettings({
      ...settings,
      layout: {
        ...settings.layout,
        config: { ...config, navbar: { ...config.navbar, folded: !folded } },
      },
    });
  };
  return (
    <Tooltip title={label}>
      <IconButton
        color="inherit"
        size="small"
        aria-label={label}
        aria-pressed={!folded}
        onClick={toggle}
      >
        {folded ? <PushPin fontSize="small" /> : <MenuOpen fontSize="small" />}
      </IconButton>
    </Tooltip>
  );
}

/** Opens a folded sidebar while the pointer rests on it, after the seed's 150 ms. */
function useHoverOpen(enabled: boolean) {
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    if (!enabled) setOpen(false);
  }, [enabled]);
  return {
    open: enabled && open,
    onMouseEnter: () => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setOpen(true), sidebarHoverDelayMs);
    },
    onMouseLeave: () => {
      clearTimeout(timer.current);
      setOpen(false);
    },
  };
}

/** 280 px, folded to 64 px (opening on hover), a drawer on small screens. */
export function PortalSidebar() {
  const theme = useTheme();
  const small = useMediaQuery((t: Theme) => t.breakpoints.down('md'), { noSsr: true });
  const [mobileOpen, setMobileOpen] = useSidebarState();
  const settings = useSettings();
  const { folded, position } = settings.layout.config.navbar;
  const hover = useHoverOpen(folded && !small);
  const colours = { bgcolor: theme.navbar.background, color: theme.navbar.text };

  if (small) {
    return (
      <Drawer
        variant="temporary"
        anchor={position}
        open={mobileOpen}
        onClose={() => setMobileOpen(false)}
        slotProps={{ paper: { sx: { width: sidebarWidths.open, ...colours } } }}
      >
        <SidebarHeader compact={false} />
        <NavigationMenu compact={false} onNavigate={() => setMobileOpen(false)} />
      </Drawer>
    );
  }
  const expanded = !folded || hover.open;
  return (
    <Box
      component="aside"
      data-testid="sidebar"
      data-folded={folded}
      sx={{
        width: folded ? sidebarWidths.folded : sidebarWidths.open,
        flexShrink: 0,
        position: 'relative',
        zIndex: theme.zIndex.drawer,
        transition: 'width 150ms',
      }}
    >
      <Box
        onMouseEnter={hover.onMouseEnter}
        onMouseLeave={hover.onMouseLeave}
        sx={{
          position: 'sticky',
          top: 0,
          height: '100vh',
          overflowY: 'auto',
          overflowX: 'hidden',
          width: expanded ? sidebarWidths.open : sidebarWidths.folded,
          transition: 'width 150ms',
          boxShadow: folded && hover.open ? 8 : 0,
          ...colours,
        }}
      >
        <Box
          sx={{ display: 'flex', justifyContent: expanded ? 'flex-end' : 'center', px: 1, pt: 1 }}
        >
          <FoldButton />
        </Box>
        <SidebarHeader compact={!expanded} />
        <NavigationMenu compact={!expanded} />
      </Box>
    </Box>
  );
}
