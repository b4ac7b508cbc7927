import {
  Box,
  Drawer,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Switch,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import { layoutModes, type PortalSettings, themeNames } from '../theme/settings';
import { saveSettings, useSettings } from '../theme/settingsStore';

type Config = PortalSettings['layout']['config'];

/** The theme settings drawer: the seed's ten themes and the layout options that matter. */
export default function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const settings = useSettings();
  const { config } = settings.layout;
  const change = (next: Partial<PortalSettings['theme']>, nextConfig: Partial<Config> = {}) =>
    void saveSettings({
      theme: { ...settings.theme, ...next },
      layout: { ...settings.layout, config: { ...config, ...nextConfig } },
    });
  return (
    <Drawer anchor="right" open={open} onClose={onClose}>
      <Box
        role="region"
        aria-label={translate('app.settings.title')}
        sx={{ width: 300, p: 3, display: 'flex', flexDirection: 'column', gap: 3 }}
      >
        <Typography variant="h6" component="h2">
          {translate('app.settings.title')}
        </Typography>
        <FormControl>
          <FormLabel id="theme-label">{translate('app.settings.theme')}</FormLabel>
          <RadioGroup
            aria-labelledby="theme-label"
            value={settings.theme.main}
            onChange={(event) =>
              change({ main: event.target.value as PortalSettings['theme']['main'] })
            }
          >
            {themeNames.map((name) => (
              <FormControlLabel
                key={name}
                value={name}
                control={<Radio size="small" />}
                label={translate(`app.settings.themes.${name}`)}
              />
            ))}
          </RadioGroup>
        </FormControl>
        <FormControl>
          <FormLabel id="layout-label">{translate('app.settings.layout')}</FormLabel>
          <RadioGroup
            aria-labelledby="layout-label"
            value={config.mode}
            onChange={(event) => change({}, { mode: event.target.value as Config['mode'] })}
          >
            {layoutModes.map((mode) => (
              <FormControlLabel
                key={mode}
                value={mode}
                control={<Radio size="small" />}
                label={translate(`app.settings.mode_${mode}`)}
              />
            ))}
          </RadioGroup>
        </FormControl>
        <FormControl>
          <FormLabel id="navbar-label">{translate('app.settings.navbar_position')}</FormLabel>
          <RadioGroup
            row
            aria-labelledby="navbar-label"
            value={config.navbar.position}
            onChange={(event) =>
              change(
                {},
                {
                  navbar: {
                    ...config.navbar,
                    position: event.target.value === 'right' ? 'right' : 'left',
                  },
                },
              )
            }
          >
            <FormControlLabel
              value="left"
              control={<Radio size="small" />}
              label={translate('app.settings.left')}
            />
            <FormControlLabel
              value="right"
              control={<Radio size="small" />}
              label={translate('app.settings.right')}
            />
          </RadioGroup>
        </FormControl>
        <FormControlLabel
          control={
            <Switch
              checked={config.navbar.folded}
              onChange={(event) =>
                change({}, { navbar: { ...config.navbar, folded: event.target.checked } })
              }
            />
          }
          label={translate('app.settings.folded')}
        />
      </Box>
    </Drawer>
  );
}
