/** Everything the UI keeps in the browser's local storage, under these keys only. */
export const storageKeys = {
  token: 'jwt_access_token',
  activeTerminal: 'activeTerminalId',
  settings: 'settings',
  locale: 'locale',
} as const;

type StorageKey = (typeof storageKeys)[keyof typeof storageKeys];

export function readStored(key: StorageKey): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: StorageKey, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private mode or a full quota: the choice then lasts for this page only.
  }
}

export function removeStored(key: StorageKey): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing stored to remove.
  }
}
