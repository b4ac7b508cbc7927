import {
  Box,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  ListSubheader,
  Tooltip,
} from '@mui/material';
import { Fragment } from 'react';
import { useTranslate } from 'react-admin';
import { NavLink } from 'react-router-dom';
import { type NavigationItem, visibleNavigation } from '../navigation/navigation';
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
    // One list per group, named by its heading: a heading is not an item of the list.
    <Box
      component="nav"
      aria-label={translate('app.nav.navigation')}
      sx={{ color: 'inherit', pb: 4 }}
    >
      {visibleNavigation(user).map((group) => (
        <Fragment key={group.id}>
          {compact ? (
            <Box aria-hidden="true" sx={{ height: 12 }} />
          ) : (
            <ListSubheader
              id={`nav-group-${group.id}`}
              component="div"
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
          <List
            dense
            disablePadding
            aria-labelledby={compact ? undefined : `nav-group-${group.id}`}
            aria-label={compact ? translate(group.title) : undefined}
          >
            {group.children.map((item) => (
              <NavigationLink key={item.id} item={item} compact={compact} onNavigate={onNavigate} />
            ))}
          </List>
        </Fragment>
      ))}
    </Box>
  );
}

function NavigationLink({
  item,
  compact,
  onNavigate,
}: {
  item: NavigationItem;
  compact: boolean;
  onNavigate?: () => void;
}) {
  const translate = useTranslate();
  const title = translate(item.title);
  const Icon = item.icon;
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      <Tooltip title={compact ? title : ''} placement="right">
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
    </ListItem>
  );
}
