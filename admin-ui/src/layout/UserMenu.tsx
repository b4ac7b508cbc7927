import AccountCircle from '@mui/icons-material/AccountCircle';
import Login from '@mui/icons-material/Login';
import Logout from '@mui/icons-material/Logout';
import PersonAdd from '@mui/icons-material/PersonAdd';
import { IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import { type ReactElement, useState } from 'react';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { useSessionUser } from '../session/sessionStore';

interface Entry {
  label: string;
  to: string;
  icon: ReactElement;
}

const signedInEntries: Entry[] = [
  {
    label: 'app.user_menu.my_profile',
    to: '/pages/profile',
    icon: <AccountCircle fontSize="small" />,
  },
  { label: 'app.user_menu.logout', to: '/logout', icon: <Logout fontSize="small" /> },
];
const guestEntries: Entry[] = [
  { label: 'app.user_menu.login', to: '/login', icon: <Login fontSize="small" /> },
  { label: 'app.user_menu.register', to: '/register', icon: <PersonAdd fontSize="small" /> },
];

/** With a role: My Profile and Logout. Without: Login and Register (seed section 2). */
export function UserMenu() {
  const translate = useTranslate();
  const user = useSessionUser();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const entries = user && user.role.length > 0 ? signedInEntries : guestEntries;
  const label = translate('app.user_menu.label');
  return (
    <>
      <Tooltip title={user?.data.email ?? label}>
        <IconButton
          color="inherit"
          aria-label={label}
          aria-haspopup="menu"
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <AccountCircle />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {entries.map(({ label: entryLabel, to, icon }) => (
          <MenuItem key={to} component={Link} to={to} onClick={() => setAnchor(null)}>
            <ListItemIcon>{icon}</ListItemIcon>
            <ListItemText>{translate(entryLabel)}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
