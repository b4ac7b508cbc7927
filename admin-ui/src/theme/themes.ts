import type { Theme } from '@mui/material/styles';
import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';
import { sidebarWidths, type ThemeName } from './settings';

declare module '@mui/material/styles' {
  interface Theme {
    navbar: { background: string; text: string };
  }
  interface ThemeOptions {
    navbar?: { background: string; text: string };
  }
}

interface Colours {
  mode: 'light' | 'dark';
  primary: string;
  secondary: string;
  background: string;
  paper: string;
  navbar: string;
  navbarText: string;
}

/** The seed's ten theme names, each a palette and a navigation colour. */
const colours: Record<ThemeName, Colours> = {
  default: {
    mode: 'light',
    primary: '#1d4ed8',
    secondary: '#0f766e',
    background: '#f1f5f9',
    paper: '#ffffff',
    navbar: '#111827',
    navbarText: '#f8fafc',
  },
  legacy: {
    mode: 'light',
    primary: '#2d323e',
    secondary: '#039be5',
    background: '#f5f5f5',
    paper: '#ffffff',
    navbar: '#2d323e',
    navbarText: '#ffffff',
  },
  sunset: {
    mode: 'light',
    primary: '#c2410c',
    secondary: '#be185d',
    background: '#fff7ed',
    paper: '#ffffff',
    navbar: '#7c2d12',
    navbarText: '#fff7ed',
  },
  greeny: {
    mode: 'light',
    primary: '#15803d',
    secondary: '#4d7c0f',
    background: '#f0fdf4',
    paper: '#ffffff',
    navbar: '#14532d',
    navbarText: '#f0fdf4',
  },
  beach: {
    mode: 'light',
    primary: '#0e7490',
    secondary: '#b45309',
    background: '#fefce8',
    paper: '#ffffff',
    navbar: '#155e75',
    navbarText: '#ecfeff',
  },
  tech: {
    mode: 'light',
    primary: '#6d28d9',
    secondary: '#0369a1',
    background: '#f5f3ff',
    paper: '#ffffff',
    navbar: '#1e1b4b',
    navbarText: '#ede9fe',
  },
  sweetHues: {
    mode: 'light',
    primary: '#a21caf',
    secondary: '#db2777',
    background: '#fdf4ff',
    paper: '#ffffff',
    navbar: '#701a75',
    navbarText: '#fdf4ff',
  },
  defaultDark: {
    mode: 'dark',
    primary: '#60a5fa',
    secondary: '#2dd4bf',
    background: '#0f172a',
    paper: '#1e293b',
    navbar: '#020617',
    navbarText: '#e2e8f0',
  },
  deepOcean: {
    mode: 'dark',
    primary: '#38bdf8',
    secondary: '#818cf8',
    background: '#082f49',
    paper: '#0c4a6e',
    navbar: '#041e30',
    navbarText: '#e0f2fe',
  },
  slate: {
    mode: 'light',
    primary: '#334155',
    secondary: '#0284c7',
    background: '#f8fafc',
    paper: '#ffffff',
    navbar: '#334155',
    navbarText: '#f1f5f9',
  },
};

/** Options, not a theme: react-admin's ThemeProvider creates the theme from them. */
export function portalTheme(name: ThemeName, direction: 'ltr' | 'rtl'): RaThemeOptions {
  const c = colours[name];
  const base: RaThemeOptions = c.mode === 'dark' ? defaultDarkTheme : defaultLightTheme;
  return {
    ...base,
    direction,
    palette: {
      mode: c.mode,
      // A filled chip or button writes white only where white reaches WCAG AA (4.5:1), else
      // black: MUI's default of 3 put white on the info and warning colours ("Sent", "Past due").
      contrastThreshold: 4.5,
      primary: { main: c.primary },
      secondary: { main: c.secondary },
      background: { default: c.background, paper: c.paper },
    },
    sidebar: { width: sidebarWidths.open, closedWidth: sidebarWidths.folded },
    // The seed's labels ('Register Account', 'Login') are shown as written, not upper-cased.
    typography: { ...base.typography, button: { textTransform: 'none', fontWeight: 600 } },
    navbar: { background: c.navbar, text: c.navbarText },
    components: {
      ...base.components,
      MuiCheckbox: { defaultProps: checkboxLabelOnInput },
      // What is typed reads in its own direction: an email in an Arabic form stays "bad@",
      // not "@bad" (a field whose text has no letters, a phone, sets dir="ltr" itself).
      MuiInputBase: { styleOverrides: { input: { unicodeBidi: 'plaintext' } } },
      RaFilterFormInput: { styleOverrides: { root: filterSpacerOnlyWhenRoomy } },
      // A phone list's time floats at the line's end: when the title fills the line it touched it
      // ("E-transfer requestedNov 27, 2026"). Written for LTR; the RTL plugin mirrors it.
      RaSimpleList: { styleOverrides: { root: { '& .RaSimpleList-tertiary': { marginLeft: 8 } } } },
    },
  };
}

/**
 * react-admin keeps a 16 px spacer after each filter, room for the hide button of the next: on a
 * phone the list's one search field then stops short of the card's end edge, which reads as a
 * misaligned box. It spans the card there.
 */
const filterSpacerOnlyWhenRoomy = ({ theme }: { theme: Theme }) => ({
  [theme.breakpoints.down('sm')]: { '& .RaFilterFormInput-spacer': { display: 'none' } },
});

type CheckboxOwner = { 'aria-label'?: string };

/**
 * A checkbox's `aria-label` names its input, not the span around it: react-admin's row checkboxes
 * pass it to the Checkbox, which puts it on a span (a prohibited ARIA attribute there) and leaves
 * the input without a label.
 */
const checkboxLabelOnInput = {
  slotProps: {
    root: (owner: CheckboxOwner) => (owner['aria-label'] ? { 'aria-label': undefined } : {}),
    input: (owner: CheckboxOwner) =>
      owner['aria-label'] ? { 'aria-label': owner['aria-label'] } : {},
  },
};
