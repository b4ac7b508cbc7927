export const themeNames = [
  'default',
  'legacy',
  'sunset',
  'greeny',
  'beach',
  'tech',
  'sweetHues',
  'defaultDark',
  'deepOcean',
  'slate',
] as const;
export type ThemeName = (typeof themeNames)[number];

export const layoutModes = ['fullwidth', 'boxed', 'container'] as const;
export type LayoutMode = (typeof layoutModes)[number];
export type NavbarPosition = 'left' | 'right';

/** The seed's theme settings, reduced to what this UI honours. */
export interface PortalSettings {
  layout: {
    style: 'layout1';
    config: { mode: LayoutMode; navbar: { position: NavbarPosition; folded: boolean } };
  };
  theme: { main: ThemeName };
}

export const defaultSettings: PortalSettings = {
  layout: {
    style: 'layout1',
    config: { mode: 'fullwidth', navbar: { position: 'left', folded: false } },
  },
  theme: { main: 'default' },
};

/** Widths of the seed (section 9). */
export const layoutWidths = { boxed: 1280, container: 1120 } as const;
export const sidebarWidths = { open: 280, folded: 64 } as const;
export const sidebarHoverDelayMs = 150;

const isOneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (values as readonly string[]).includes(value);

/**
 * Settings as stored (on the user or in this browser) made safe: they apply only when both the
 * theme and the layout style are present (seed section 5); unknown values fall back to defaults.
 */
export function readSettings(stored: unknown): PortalSettings | undefined {
  const value = stored as {
    layout?: {
      style?: unknown;
      config?: { mode?: unknown; navbar?: { position?: unknown; folded?: unknown } };
    };
    theme?: { main?: unknown };
  } | null;
  if (!value?.layout?.style || !value.theme?.main) return undefined;
  const config = value.layout.config;
  const defaults = defaultSettings.layout.config;
  return {
    layout: {
      style: 'layout1',
      config: {
        mode: isOneOf(layoutModes, config?.mode) ? config.mode : defaults.mode,
        navbar: {
          position: config?.navbar?.position === 'right' ? 'right' : 'left',
          folded: config?.navbar?.folded === true,
        },
      },
    },
    theme: { main: isOneOf(themeNames, value.theme.main) ? value.theme.main : 'default' },
  };
}
