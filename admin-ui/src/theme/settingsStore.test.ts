import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authProvider } from '../session/authProvider';
import { endSession } from '../session/sessionStore';
import { readStored, storageKeys } from '../session/storage';
import { type ApiOverHttp, startApiOverHttp } from '../testing/apiOverHttp';
import { defaultSettings, type PortalSettings, readSettings } from './settings';
import { currentSettings, saveSettings } from './settingsStore';

let api: ApiOverHttp;
beforeAll(async () => {
  api = await startApiOverHttp();
});
afterAll(() => api.close());
beforeEach(() => endSession());

const oceanBoxed: PortalSettings = {
  theme: { main: 'deepOcean' },
  layout: {
    style: 'layout1',
    config: { mode: 'boxed', navbar: { position: 'right', folded: true } },
  },
};

describe('stored settings', () => {
  it('apply only with both a theme and a layout style (seed section 5)', () => {
    expect(readSettings({ theme: { main: 'slate' } })).toBeUndefined();
    expect(readSettings({ layout: { style: 'layout1' } })).toBeUndefined();
    expect(readSettings(oceanBoxed)).toEqual(oceanBoxed);
  });

  it('fall back to the defaults for values this UI does not know', () => {
    const odd = readSettings({
      theme: { main: 'neon' },
      layout: { style: 'layout9', config: { mode: 'huge' } },
    });
    expect(odd?.theme.main).toBe('default');
    expect(odd?.layout.config.mode).toBe(defaultSettings.layout.config.mode);
  });
});

describe('saving settings', () => {
  it('keeps a guest’s in this browser only', async () => {
    await saveSettings(oceanBoxed);
    expect(JSON.parse(readStored(storageKeys.settings) ?? '{}')).toEqual(oceanBoxed);
    expect(currentSettings()).toEqual(oceanBoxed);
  });

  it('saves a signed-in user’s to the profile, so another browser gets them', async () => {
    const company = await api.newCompany();
    await authProvider.login({ email: company.email, password: company.password });
    await saveSettings(oceanBoxed);
    // Another browser: nothing stored locally, a fresh sign-in.
    endSession();
    localStorage.clear();
    expect(currentSettings()).toEqual(defaultSettings);
    await authProvider.login({ email: company.email, password: company.password });
    expect(currentSettings()).toEqual(oceanBoxed);
  });
});
