import Translate from '@mui/icons-material/Translate';
import { IconButton, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import { useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { locales } from '../i18n/locales';

/** English, Turkish, Arabic; the choice persists and Arabic turns the layout right-to-left. */
export function LanguageMenu() {
  const translate = useTranslate();
  const [locale, setLocale] = useLocaleState();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const label = translate('app.language.label');
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          aria-label={label}
          aria-haspopup="menu"
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <Translate />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {locales.map((code) => (
          <MenuItem
            key={code}
            selected={code === locale}
            lang={code}
            onClick={() => {
              setAnchor(null);
              setLocale(code);
            }}
          >
            <ListItemText>{translate(`app.language.${code}`)}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
