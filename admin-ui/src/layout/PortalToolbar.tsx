import MenuIcon from '@mui/icons-material/Menu';
import { AppBar, IconButton, Toolbar, useMediaQuery } from '@mui/material';
import type { Theme } from '@mui/material/styles';
import { LoadingIndicator, TitlePortal, useSidebarState, useTranslate } from 'react-admin';
import { LanguageMenu } from './LanguageMenu';
import { NavigationSearch } from './NavigationSearch';
import { SettingsPanel } from './SettingsPanel';
import { UserMenu } from './UserMenu';

/** 64 px high: the drawer button on small screens, navigation search, language, settings, user. */
export function PortalToolbar() {
  const translate = useTranslate();
  const small = useMediaQuery((t: Theme) => t.breakpoints.down('md'), { noSsr: true });
  const [, setMobileOpen] = useSidebarState();
  return (
    <AppBar position="sticky" color="default" elevation={1} sx={{ bgcolor: 'background.paper' }}>
      {/* On a 390 px phone six buttons share the bar: no gaps; lists then show their title below. */}
      <Toolbar sx={{ minHeight: 64, gap: small ? 0 : 1 }}>
        {small && (
          <IconButton
            edge="start"
            aria-label={translate('ra.action.open_menu')}
            onClick={() => setMobileOpen(true)}
          >
            <MenuIcon />
          </IconButton>
        )}
        <NavigationSearch />
        <TitlePortal
          variant="h6"
          sx={{
            mx: small ? 1 : 2,
            flex: 1,
            minWidth: 0,
            whiteSpace: 'nowrap',
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            // Below 600 px it only holds the buttons to the end: the screen shows its own heading.
            visibility: { xs: 'hidden', sm: 'visible' },
          }}
        />
        <LoadingIndicator aria-label={translate('ra.page.loading')} />
        <LanguageMenu />
        <SettingsPanel />
        <UserMenu />
      </Toolbar>
    </AppBar>
  );
}
