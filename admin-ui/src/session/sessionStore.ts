import { useSyncExternalStore } from 'react';
import { type SessionUser, terminalDeviceIds } from './sessionUser';
import { readStored, removeStored, storageKeys, writeStored } from './storage';

/**
 * The signed-in user of this page, shared by the auth provider (plain code) and the shell
 * (React, through `useSessionUser`). The token itself lives in local storage.
 */
let currentUser: SessionUser | null = null;
const listeners = new Set<() => void>();

const emit = () => {
  for (const listener of listeners) listener();
};

export function sessionUser(): SessionUser | null {
  return currentUser;
}

export function startSession(user: SessionUser, token: string): void {
  writeStored(storageKeys.token, token);
  currentUser = user;
  emit();
}

export function replaceSessionUser(user: SessionUser): void {
  currentUser = user;
  emit();
}

/** Forgets the user, the token, the active terminal and the stored settings. */
export function endSession(): void {
  removeStored(storageKeys.token);
  removeStored(storageKeys.activeTerminal);
  removeStored(storageKeys.settings);
  currentUser = null;
  emit();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

export function useSessionUser(): SessionUser | null {
  return useSyncExternalStore(subscribe, sessionUser);
}

/** The stored choice when it is still one of the user's terminals, else the first terminal. */
export function activeTerminalId(user: SessionUser): string {
  const terminals = terminalDeviceIds(user);
  const stored = readStored(storageKeys.activeTerminal);
  return stored && terminals.includes(stored) ? stored : (terminals[0] ?? '');
}

export function chooseActiveTerminal(deviceId: string): void {
  writeStored(storageKeys.activeTerminal, deviceId);
  if (currentUser) currentUser = { ...currentUser, activeTerminalId: deviceId };
  emit();
}
