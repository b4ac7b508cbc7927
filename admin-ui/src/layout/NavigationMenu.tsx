import {
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  ListSubheader,
  Tooltip,
} from '@mui/material';
import { Fragment } from 'react';
import { useTranslate } from 'react-admin';
import { NavLink } from 'react-router-dom';
import { visibleNavigation } from '../navigation/navigation';
import { useSessionUser } from '../session/sessionStore';

/** The seed's groups, filtered by role, verification and issuer status. */
export function NavigationMenu({
  compact,
  onNavigate,
}: {
  compact: boolean;
  onNavigate?: () => void;
}) {
  const translate = useTranslate();
  const user = useSessionUser();
  return (
    <List
      component="nav"
      aria-label={translate('app.nav.navigation')}
      dense
      sx={{ color: 'inherit', pb: 4 }}
    >
      {visibleNavigation(user).map((group) => (
        <Fragment key={group.id}>
          {compact ? (
            <li aria-hidden="true" style={{ height: 12 }} />
          ) : (
            <ListSubheader
              component="li"
              disableSticky
              sx={{
                bgcolor: 'transparent',
                color: 'inherit',
                opacity: 0.6,
                textTransform: 'uppercase',
                fontSize: 12,
                letterSpacing: '0.08em',
                lineHeight: '32px',
                mt: 1,
              }}
            >
              {translate(group.title)}
            </ListSubheader>
          )}
          {group.children.map((item) => {
            const title = translate(item.title);
            const Icon = item.icon;
            return (
              <Tooltip key={item.id} title={compact ? title : ''} placement="right">
                <ListItemButton
                  component={NavLink}
                  to={item.url}
                  onClick={onNavigate}
                  aria-label={compact ? title : undefined}
                  sx={{
                    mx: 1,
                    borderRadius: 1,
                    minHeight: 40,
                    justifyContent: compact ? 'center' : 'flex-start',
                    '&.active': { bgcolor: 'primary.main', color: 'primary.contrastText' },
                  }}
                >
                  <ListItemIcon sx={{ color: 'inherit', minWidth: compact ? 0 : 40 }}>
                    <Icon fontSize="small" />
                  </ListItemIcon>
                  {!compact && <ListItemText primary={title} />}
                </ListItemButton>
              </Tooltip>
            );
          })}
        </Fragment>
      ))}
    </List>
  );
}
