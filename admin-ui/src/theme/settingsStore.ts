import { useSyncExternalStore } from 'react';
import { callApi } from '../session/http';
import { notice } from '../session/notices';
import { replaceSessionUser, sessionUser, useSessionUser } from '../session/sessionStore';
import { readStored, storageKeys, writeStored } from '../session/storage';
import { defaultSettings, type PortalSettings, readSettings } from './settings';

const listeners = new Set<() => void>();
let localVersion = 0;
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

function localSettings(): PortalSettings | undefined {
  const stored = readStored(storageKeys.settings);
  if (!stored) return undefined;
  try {
    return readSettings(JSON.parse(stored));
  } catch {
    return undefined;
  }
}

/** A signed-in user's saved settings, else this browser's, else the defaults. */
export function currentSettings(): PortalSettings {
  const user = sessionUser();
  return (user && readSettings(user.data.settings)) ?? localSettings() ?? defaultSettings;
}

export function useSettings(): PortalSettings {
  const user = useSessionUser();
  useSyncExternalStore(subscribe, () => localVersion);
  return (user && readSettings(user.data.settings)) ?? localSettings() ?? defaultSettings;
}

/**
 * Applies at once. A guest's settings stay in this browser; a signed-in user's are saved to
 * their profile (`POST /api/auth/user/update`) and follow them to another browser.
 */
export async function saveSettings(settings: PortalSettings): Promise<void> {
  writeStored(storageKeys.settings, JSON.stringify(settings));
  localVersion += 1;
  for (const listener of listeners) listener();
  const user = sessionUser();
  if (!user) return;
  const data = { settings: { ...settings }, shortcuts: user.data.shortcuts };
  replaceSessionUser({ ...user, data: { ...user.data, ...data } });
  await callApi('/auth/user/update', { method: 'POST', body: { user: { data } } });
  notice('app.session.user_data_saved', 'success');
}
