import type { SessionUser } from '../../../api/src/auth/userObject';

/** The session user the API answers on register, login and access-token (seed section 3). */
export type { SessionUser };

export interface SessionAnswer {
  user?: SessionUser;
  access_token?: string;
}

/** The terminals' device ids in slot order, empty slots left out. */
export function terminalDeviceIds(user: SessionUser): string[] {
  const { terminalDeviceId, terminalDeviceId2, terminalDeviceId3 } = user.data;
  return [terminalDeviceId, terminalDeviceId2, terminalDeviceId3].filter(Boolean);
}
